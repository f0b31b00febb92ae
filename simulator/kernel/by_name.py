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

A function may also be called through a named slot (``late_caller``), whose address the
process's linker knows from the start and which ``provide_late`` fills: its callers compile
and load before the callee exists (the lookahead player's rollouts in the power-card games
call the powers build, which another process may be compiling at the same time), and a call
before it is provided returns ``missing``'s answer instead of calling.
"""

from __future__ import annotations

import ctypes

import llvmlite.binding as llvm
from llvmlite import ir as llvmir
from numba import config, types
from numba.core import cgutils
from numba.experimental.function_type import _get_jit_address
from numba.extending import intrinsic

from .jit import hot

_PROVIDED: dict[str, int] = {}
_SLOTS: dict[str, ctypes.c_void_p] = {}


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


def _value(fn_type, signature, address):
    """Codegen of a first-class function value of ``fn_type`` calling ``address`` (an i8*)
    with the callee's own calling convention, as a dispatcher cast to a function type is
    called (numba.experimental.function_type): no C wrapper, no GIL."""
    def build(context, builder):
        pointer = cgutils.create_struct_proxy(fn_type)(context, builder)
        voidptr = context.get_value_type(types.voidptr)
        pointer.c_addr = voidptr(None)
        pointer.py_addr = voidptr(None)
        pointer.jit_addr = address(context, builder, voidptr)
        return pointer._getvalue()
    return build


def _by_arity(signature, scope, body):
    """A compiled function of ``signature``'s arity whose body is ``body`` (Numba needs the
    arguments by name); made here, it has no file to cache it under, so it is copied into its
    callers."""
    names = ", ".join(f"a{i}" for i in range(len(signature.args)))
    exec(f"def call({names}):\n    {body.format(names=names)}\n", scope)
    return hot(scope["call"], inline="always", cache=False)


def pointer(name: str, signature):
    """A compiled function of no arguments returning the function provided as ``name`` as a
    first-class function value of ``signature`` (for a table of policies)."""
    if config.DISABLE_JIT:
        return lambda: (lambda *args: _PROVIDED[name](*args))
    fn_type = types.FunctionType(signature)

    def symbol(context, builder, voidptr):
        llfnty = context.call_conv.get_function_type(signature.return_type, signature.args)
        return builder.bitcast(cgutils.get_or_insert_function(builder.module, llfnty, name),
                               voidptr)

    @intrinsic
    def _pointer(typingctx):
        build = _value(fn_type, signature, symbol)
        return fn_type(), lambda context, builder, sig, args: build(context, builder)

    def value():
        return _pointer()
    return hot(value, inline="always", cache=False)


def caller(name: str, signature):
    """A compiled function of ``signature`` that calls the function provided as ``name``
    (inlined where it is called: one indirect call)."""
    if config.DISABLE_JIT:
        return lambda *args: _PROVIDED[name](*args)
    value = pointer(name, signature)
    return _by_arity(signature, {"_value": value}, "return _value()({names})")


def _slot(name: str) -> ctypes.c_void_p:
    if name not in _SLOTS:
        _SLOTS[name] = ctypes.c_void_p(0)
        if not config.DISABLE_JIT:
            llvm.add_symbol(name, ctypes.addressof(_SLOTS[name]))
    return _SLOTS[name]


def provide_late(name: str, dispatcher, signature) -> None:
    """Compile ``dispatcher`` for ``signature`` (its return type must be the signature's)
    and fill slot ``name`` with it: ``late_caller(name, signature)`` calls it from now on."""
    if config.DISABLE_JIT:
        _PROVIDED[name] = dispatcher
        return
    dispatcher.compile(signature.args)
    returns = dispatcher.overloads[signature.args].signature.return_type
    if returns != signature.return_type:
        raise TypeError(f"by_name: {name} returns {returns}, not {signature.return_type}")
    _slot(name).value = _get_jit_address(dispatcher, signature)


def late_caller(name: str, signature, missing):
    """A compiled function of ``signature`` that calls what slot ``name`` holds
    (``provide_late``), or returns ``missing(*args)`` (a compiled function) while it holds
    nothing."""
    if config.DISABLE_JIT:
        return lambda *args: (_PROVIDED[name] if name in _PROVIDED else missing)(*args)
    _slot(name)
    fn_type = types.FunctionType(signature)

    def slot_address(context, builder, voidptr):
        module = builder.module
        try:
            slot = module.get_global(name)
        except KeyError:
            slot = llvmir.GlobalVariable(module, voidptr, name=name)
            slot.linkage = "external"
        return builder.load(slot)

    @intrinsic
    def _filled(typingctx):
        def codegen(context, builder, sig, args):
            voidptr = context.get_value_type(types.voidptr)
            return builder.icmp_unsigned("!=", slot_address(context, builder, voidptr),
                                         voidptr(None))
        return types.boolean(), codegen

    @intrinsic
    def _held(typingctx):
        build = _value(fn_type, signature, slot_address)
        return fn_type(), lambda context, builder, sig, args: build(context, builder)
    scope = {"_filled": _filled, "_held": _held, "_missing": missing}
    return _by_arity(signature, scope, "return _held()({names}) if _filled() else "
                                       "_missing({names})")
