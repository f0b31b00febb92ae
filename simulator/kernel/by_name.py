"""A compiled function called by its symbol's name, so that its code is not compiled into
every function that calls it.

Numba compiles each function into a module of its own and links into it the whole code of every
function it calls, then optimises and emits machine code for the lot: a function called from
many steps of the flow (the rollouts' seat models, strategies/rollout_models.py) would be
emitted again in every one of them. Called by name, it is compiled once: ``provide`` compiles
(or loads from the cache) the function and gives its address to the process's linker under
``name``, and ``caller`` returns a compiled function that calls whatever was provided under
that name, as the first-class function call of the policies' table does, without linking it.
The callers' cached code holds the name only, so a process must ``provide`` it before it loads
them (the module that defines the callee does it when imported).
"""

from __future__ import annotations

import llvmlite.binding as llvm
from numba import config, types
from numba.core import cgutils
from numba.experimental.function_type import _get_jit_address
from numba.extending import intrinsic

from .jit import hot

_PROVIDED: dict[str, int] = {}


def provide(name: str, dispatcher, signature) -> None:
    """Compile ``dispatcher`` (an ``@hot`` function) for ``signature`` and make it the function
    that ``caller(name, signature)`` calls in this process."""
    if config.DISABLE_JIT:   # plain Python (NUMBA_DISABLE_JIT): the caller calls it
        _PROVIDED[name] = dispatcher
        return
    dispatcher.compile(signature.args)
    address = _get_jit_address(dispatcher, signature)
    if _PROVIDED.get(name, address) != address:
        raise RuntimeError(f"by_name: {name} was provided by another function already")
    llvm.add_symbol(name, address)
    _PROVIDED[name] = address


def caller(name: str, signature):
    """A compiled function of ``signature`` that calls the function provided as ``name``
    (inlined where it is called: one indirect call)."""
    if config.DISABLE_JIT:
        return lambda *args: _PROVIDED[name](*args)
    fn_type = types.FunctionType(signature)

    @intrinsic
    def _pointer(typingctx):
        def codegen(context, builder, sig, args):
            # the callee's own calling convention, as a dispatcher cast to a function type
            # is called (numba.experimental.function_type): no C wrapper, no GIL
            llfnty = context.call_conv.get_function_type(signature.return_type,
                                                         signature.args)
            fn = cgutils.get_or_insert_function(builder.module, llfnty, name)
            voidptr = context.get_value_type(types.voidptr)
            pointer = cgutils.create_struct_proxy(fn_type)(context, builder)
            pointer.c_addr = voidptr(None)
            pointer.py_addr = voidptr(None)
            pointer.jit_addr = builder.bitcast(fn, voidptr)
            return pointer._getvalue()
        return fn_type(), codegen

    # Numba needs the arguments by name: one function of the signature's arity
    names = ", ".join(f"a{i}" for i in range(len(signature.args)))
    scope = {"_pointer": _pointer}
    exec(f"def call({names}):\n    return _pointer()({names})\n", scope)
    # (a function made here has no file to cache it under: it is copied into its callers)
    return hot(scope["call"], inline="always", cache=False)
