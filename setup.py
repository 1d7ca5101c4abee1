"""The optional compiled engine.

The state machine (``core/engine/state.py`` with ``core/engine/exchange.py``) is compiled by Cython from the same
Python source when the package is built; everything else (the plugins, the rules, the CLI) stays
Python.  Without a C compiler the build installs the pure-Python engine instead, and
``FIVEHUNDRED_NO_EXTENSIONS=1`` asks for it (for work on the engine itself, where an editable install
must see the edited source).  Both builds play the same games: ``tests/test_compiled.py``.
Everything else about the package is in ``pyproject.toml``.
"""

import os
import runpy

from setuptools import Extension, setup

COMPILED_MODULES = runpy.run_path("core/engine/build.py")["COMPILED_MODULES"]  # the package's own list, read unbuilt


def extensions() -> list[Extension]:
    if os.environ.get("FIVEHUNDRED_NO_EXTENSIONS"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:  # a build without its build requirements (pyproject.toml lists Cython)
        return []
    # fivehundred.engine.state is core/engine/state.py (pyproject.toml maps core/ to the package)
    modules = [Extension(name, ["/".join(["core", *name.split(".")[1:]]) + ".py"]) for name in COMPILED_MODULES]
    # annotation_typing off: the annotations stay hints, so the compiled module keeps Python's semantics.
    compiled = cythonize(modules, build_dir="build/cython", quiet=True,
                         compiler_directives={"language_level": 3, "annotation_typing": False, "binding": True})
    for extension in compiled:
        extension.optional = True  # a failed compilation leaves the pure-Python module in place
    return compiled


setup(ext_modules=extensions())
