"""python3 -m nvfp4: fill or list the kernel cache.

    python3 -m nvfp4 compile [--cache-dir DIR] --chip sm_90a SPEC... [-o NAME=VALUE]...
    python3 -m nvfp4 list [--cache-dir DIR]

SPEC is a GEMV of the IR writer, MxKxL[:nvfp4|mxfp4][:linear|blocked128x4]
[:f16|bf16|f32][:noalpha]; -o passes a pipeline option (rows-per-block=4)
to every SPEC. A cache filled here can be copied to a GPU machine without
nvfp4-opt and used there through NVFP4_CACHE_DIR or cache_dir=.
"""
import argparse
import sys

from .api import compile
from .cache import Cache
from .errors import Nvfp4Error
from .spec import GemvSpec


def parse_option(text):
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got '{text}'")
    return name.replace("-", "_"), value


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m nvfp4",
                                     description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("compile", help="compile GEMVs into the cache")
    build.add_argument("specs", nargs="+", metavar="SPEC")
    build.add_argument("--chip", required=True)
    build.add_argument("-o", "--option", action="append", default=[],
                       type=parse_option, metavar="NAME=VALUE")
    listing = commands.add_parser("list", help="list the cached kernels")
    for command in (build, listing):
        command.add_argument("--cache-dir", help="default: $NVFP4_CACHE_DIR "
                             "or ~/.cache/nvfp4")
    args = parser.parse_args(argv)
    try:
        if args.command == "compile":
            for text in args.specs:
                spec = GemvSpec.parse(text)
                kernel = compile(**vars(spec), chip=args.chip,
                                 cache_dir=args.cache_dir,
                                 **dict(args.option))
                print(f"{spec.spec()} {kernel.chip} {kernel.manifest.path}")
        else:
            for manifest, request in Cache(args.cache_dir).entries():
                print(f"{request.get('spec')} '{request.get('pipeline')}' "
                      f"{manifest}")
    except Nvfp4Error as error:
        print(f"nvfp4: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
