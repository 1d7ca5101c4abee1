"""The optional compiled engine.

The state machine (``core/engine/state.py`` with ``core/engine/exchange.py``) and the few modules a batch
of games calls game after game, with the default bots and the research adapters' episode and tensors
(``COMPILED_MODULES`` in ``core/engine/build.py``), are compiled by Cython from the same Python source when
the package is built; everything else (the plugins' hooks, the rulesets, montecarlo, the CLI) stays Python.
``core/engine/state.pxd`` and ``exchange.pxd`` give a few of the engine's loops C types (the pure-Python
engine never reads them).
Without a C compiler the build installs the pure-Python engine instead, and
``FIVEHUNDRED_NO_EXTENSIONS=1`` asks for it (for work on the compiled modules, where an editable install
must see the edited source).  ``FIVEHUNDRED_REQUIRE_COMPILED=1`` (CI, ``.ci/run``) turns that fallback into a
failed install naming the module that did not compile.  Both builds play the same games:
``tests/test_compiled.py``.
Everything else about the package is in ``pyproject.toml``.
"""

import os
import runpy
import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

_BUILD = runpy.run_path("core/engine/build.py")  # the package's own lists, read unbuilt
COMPILED_MODULES, SUBPACKAGES = _BUILD["COMPILED_MODULES"], _BUILD["SUBPACKAGES"]
_STAGE = "build/stage"
REQUIRED = os.environ.get("FIVEHUNDRED_REQUIRE_COMPILED") == "1"
"""The compiled build was asked for: a module that does not compile fails the install instead of staying Python."""


class NotCompiled(SystemExit):
    """The install stops: FIVEHUNDRED_REQUIRE_COMPILED=1 and a module of COMPILED_MODULES cannot be compiled."""

    def __init__(self, why: str) -> None:
        super().__init__(f"error: FIVEHUNDRED_REQUIRE_COMPILED=1, but {why} (unset it to install the "
                         "pure-Python engine instead)")


def extensions() -> list[Extension]:
    if os.environ.get("FIVEHUNDRED_NO_EXTENSIONS"):
        if REQUIRED:
            raise NotCompiled("FIVEHUNDRED_NO_EXTENSIONS asks for the pure-Python engine")
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:  # a build without its build requirements (pyproject.toml lists Cython)
        if REQUIRED:
            raise NotCompiled("Cython is not installed, so nothing can be compiled") from None
        return []
    modules = [Extension(name, [_staged(name)]) for name in COMPILED_MODULES]
    # annotation_typing off: the annotations stay hints, so the compiled module keeps Python's semantics.
    compiled = cythonize(modules, build_dir="build/cython", quiet=True, include_path=[_STAGE],
                         compiler_directives={"language_level": 3, "annotation_typing": False, "binding": True})
    for extension in compiled:
        extension.optional = not REQUIRED  # a failed compilation leaves the pure-Python module in place
    # The longest compilations first, so that the cores finish together (build_ext below compiles in parallel).
    return sorted(compiled, key=lambda extension: -os.path.getsize(extension.sources[0]))


def _staged(name: str) -> str:
    """The source of module ``name`` copied, with its ``.pxd`` if it has one, into the package's own layout
    under build/stage (``fivehundred.engine.state`` is ``core/engine/state.py``: pyproject.toml maps core/
    to the package), where Cython finds the ``.pxd`` beside the module it types."""
    parts = name.split(".")[1:]
    source = (Path(*parts) if parts[0] in SUBPACKAGES else Path("core", *parts)).with_suffix(".py")
    target = Path(_STAGE, *name.split(".")).with_suffix(".py")
    target.parent.mkdir(parents=True, exist_ok=True)
    for suffix in (".py", ".pxd"):
        if source.with_suffix(suffix).exists():
            shutil.copy2(source.with_suffix(suffix), target.with_suffix(suffix))
        else:
            target.with_suffix(suffix).unlink(missing_ok=True)
    return str(target)


_OPTIMISE = ["-O2", "-g0"]
"""Appended to the compiler's flags (the last -O wins), unless $CFLAGS chooses: Python's own -O3 -g takes
nearly twice the compile time for no measured speed (docs/install.md)."""


class BuildExt(build_ext):
    """``build_ext`` compiling the modules in parallel, one per core (``-j N`` still chooses), with
    ``_OPTIMISE`` on compilers of gcc's command line."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def build_extension(self, ext: Extension) -> None:
        if self.compiler.compiler_type in ("unix", "mingw32", "cygwin") and "CFLAGS" not in os.environ:
            ext.extra_compile_args = [*ext.extra_compile_args, *_OPTIMISE]
        try:
            super().build_extension(ext)
        except Exception as error:  # the compiler's own error is printed above: name the module
            if REQUIRED:
                raise NotCompiled(f"{ext.name} did not compile ({type(error).__name__}: {error})") from error
            raise


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
