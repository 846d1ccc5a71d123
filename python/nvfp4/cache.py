"""The on-disk cache of compiled kernels.

An entry is the directory `<cache>/<request>/<compiler>/` holding what the
export wrote (the PTX and its manifest) and `request.json`, written last,
which records the request and names the manifest. `<request>` hashes the
GEMV spec and the pipeline options (chip included) with the manifest
version; `<compiler>` names the nvfp4-opt binary and its LLVM version
(compiler.compiler_id). A machine without nvfp4-opt (the GPU host) uses
the newest entry of a request whatever compiler wrote it, so a cache
filled here can be copied there.

Entries are built in a temporary directory beside their final place and
renamed into it, so concurrent processes never see half an entry.
"""
import hashlib
import json
import os
import shutil
import tempfile
import time

from .compiler import export
from .errors import CompileError
from .manifest import MANIFEST_VERSION, is_manifest_file

REQUEST_FILE = "request.json"


def default_cache_dir():
    """$NVFP4_CACHE_DIR, else $XDG_CACHE_HOME/nvfp4 or ~/.cache/nvfp4."""
    explicit = os.environ.get("NVFP4_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "nvfp4")


def request_key(spec, pipeline):
    """16 hex digits naming a request: the spec and the option string."""
    request = json.dumps({"spec": spec.spec(), "pipeline": pipeline,
                          "manifest_version": MANIFEST_VERSION},
                         sort_keys=True)
    return hashlib.sha256(request.encode()).hexdigest()[:16]


class Cache:
    def __init__(self, directory=None):
        self.directory = os.path.abspath(directory or default_cache_dir())

    def request_dir(self, spec, pipeline):
        return os.path.join(self.directory, request_key(spec, pipeline))

    def _read_entry(self, entry):
        """The manifest path of a complete entry, else None."""
        try:
            with open(os.path.join(entry, REQUEST_FILE)) as file:
                request = json.load(file)
            return os.path.join(entry, request["manifest"]), request
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def find(self, spec, pipeline, compiler_id=None):
        """The manifest of the entry built by `compiler_id`, or without one
        the newest entry of the request; None when there is none."""
        request_dir = self.request_dir(spec, pipeline)
        if compiler_id is not None:
            found = self._read_entry(os.path.join(request_dir, compiler_id))
            return found[0] if found else None
        try:
            names = os.listdir(request_dir)
        except OSError:
            return None
        entries = [self._read_entry(os.path.join(request_dir, name))
                   for name in names if not name.startswith(".")]
        entries = [e for e in entries if e]
        if not entries:
            return None
        return max(entries, key=lambda e: e[1].get("created", 0))[0]

    def store(self, spec, pipeline, compiler, compiler_id):
        """Compiles the request with `compiler` into a new entry and returns
        its manifest."""
        request_dir = self.request_dir(spec, pipeline)
        try:
            os.makedirs(request_dir, exist_ok=True)
            building = tempfile.mkdtemp(prefix=".build-", dir=request_dir)
        except OSError as error:
            raise CompileError(f"cannot write the kernel cache "
                               f"{self.directory}: {error.strerror}") from None
        try:
            export(compiler, spec.module(), pipeline, building)
            manifests = sorted(f for f in os.listdir(building)
                               if is_manifest_file(f))
            if len(manifests) != 1:
                raise CompileError(f"nvfp4-opt exported {len(manifests)} "
                                   f"manifests for {spec.spec()}, expected 1")
            request = {"spec": spec.spec(), "pipeline": pipeline,
                       "compiler_id": compiler_id, "compiler": compiler,
                       "manifest": manifests[0], "created": time.time()}
            with open(os.path.join(building, REQUEST_FILE), "w") as file:
                json.dump(request, file, indent=1, sort_keys=True)
            final = os.path.join(request_dir, compiler_id)
            try:
                os.rename(building, final)
            except OSError:
                # Another process stored the same entry first.
                if self._read_entry(final) is None:
                    raise
        except OSError as error:
            raise CompileError(f"cannot write the kernel cache "
                               f"{self.directory}: {error}") from None
        finally:
            shutil.rmtree(building, ignore_errors=True)
        return os.path.join(final, manifests[0])

    def entries(self):
        """(manifest path, request) of every complete entry."""
        found = []
        try:
            requests = sorted(os.listdir(self.directory))
        except OSError:
            return found
        for request in requests:
            request_dir = os.path.join(self.directory, request)
            if not os.path.isdir(request_dir):
                continue
            for name in sorted(os.listdir(request_dir)):
                entry = self._read_entry(os.path.join(request_dir, name))
                if entry and not name.startswith("."):
                    found.append(entry)
        return found
