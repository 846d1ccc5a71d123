#!/usr/bin/env python3
"""Hand-written manifest and PTX pairs for nvfp4-run tests.

  manifest.py sign MANIFEST PTX OUTDIR
      copies MANIFEST into OUTDIR and writes PTX there, under the manifest's
      "ptx" name, with the signature global the compiler embeds: the compact
      JSON of the manifest's fields other than ptx, version and kernel
      (ManifestSchema.h, signatureSymbol).
  manifest.py edit IN OUT POINTER[=JSON]...
      writes IN to OUT with the value at each JSON pointer replaced by JSON
      (appended when the pointer ends in "-"), or removed when no value is
      given.
"""
import json
import os
import sys


def sign(manifest_path, ptx_path, outdir):
    with open(manifest_path) as file:
        fields = json.load(file)
    signed = {k: v for k, v in fields.items()
              if k not in ("ptx", "version", "kernel")}
    text = json.dumps(signed, separators=(",", ":")).encode()
    symbol = "nvfp4_signature_" + fields["kernel"]
    with open(ptx_path) as file:
        ptx = file.read()
    ptx += (f".visible .global .align 1 .b8 {symbol}[{len(text)}] = {{" +
            ", ".join(str(b) for b in text) + "};\n")
    with open(os.path.join(outdir, fields["ptx"]), "w") as file:
        file.write(ptx)
    with open(os.path.join(outdir, os.path.basename(manifest_path)),
              "w") as file:
        json.dump(fields, file, indent=2)
        file.write("\n")


def edit(source, dest, edits):
    with open(source) as file:
        fields = json.load(file)
    for item in edits:
        pointer, _, value = item.partition("=")
        *path, last = pointer.strip("/").split("/")
        parent = fields
        for step in path:
            parent = parent[int(step) if isinstance(parent, list) else step]
        if isinstance(parent, list) and last != "-":
            last = int(last)
        if not value:
            del parent[last]
        elif last == "-":
            parent.append(json.loads(value))
        else:
            parent[last] = json.loads(value)
    with open(dest, "w") as file:
        json.dump(fields, file, indent=2)
        file.write("\n")


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "sign":
        sign(*sys.argv[2:5])
    elif len(sys.argv) >= 4 and sys.argv[1] == "edit":
        edit(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sys.exit(__doc__)
