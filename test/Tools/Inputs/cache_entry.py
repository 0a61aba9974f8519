"""Edits mlxc cache entries as an attacker who can write the folder would:
the payload changed and its header (`mlxc-entry-2 <sha256> <size>`) made
to match again, so that only mlxc's other checks stand in the way.

  cache_entry.py append ENTRY LINE       a line appended to a program entry
  cache_entry.py raw-append ENTRY LINE   the same, the header left as it was
  cache_entry.py notes ENTRY TEXT        a program entry's notes replaced
                                         (TEXT with Python escapes)
  cache_entry.py object ENTRY FILE       FILE stored as the object ENTRY
  cache_entry.py hash FILE               the SHA-256 of FILE's bytes
"""
import hashlib
import sys


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    header, _, payload = data.partition(b"\n")
    magic, digest, size = header.split(b" ")
    assert magic == b"mlxc-entry-2", header
    assert hashlib.sha256(payload).hexdigest().encode() == digest, path
    assert int(size) == len(payload), path
    return header, payload


def write(path, payload):
    digest = hashlib.sha256(payload).hexdigest()
    with open(path, "wb") as f:
        f.write(b"mlxc-entry-2 %s %d\n" % (digest.encode(), len(payload)))
        f.write(payload)


def main():
    what, path = sys.argv[1], sys.argv[2]
    if what == "hash":
        with open(path, "rb") as f:
            print(hashlib.sha256(f.read()).hexdigest())
    elif what == "append":
        _, payload = read(path)
        write(path, payload + sys.argv[3].encode() + b"\n")
    elif what == "raw-append":
        with open(path, "ab") as f:
            f.write(sys.argv[3].encode() + b"\n")
    elif what == "notes":
        _, payload = read(path)
        magic, length, rest = payload.split(b"\n", 2)
        keys = rest[int(length):]
        notes = sys.argv[3].encode().decode("unicode_escape").encode("latin-1")
        write(path, magic + b"\n" + str(len(notes)).encode() + b"\n" + notes +
              keys)
    elif what == "object":
        with open(sys.argv[3], "rb") as f:
            write(path, f.read())
    else:
        sys.exit(f"cache_entry.py: unknown command {what}")


main()
