"""The KingsIsle workloads that faults.py and instructions.py run in a child interpreter:
``SETUP`` is the child's code up to ``run``, the callable of the workload named by its
arguments (``FILE.bin TYPES.json WORKLOAD CALLS``); ``WORKLOADS`` names them all."""

SETUP = r"""
import sys
from gamewire import kingsisle
import katsuba.op as op
path, types, what, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
tl = kingsisle.TypeList(types)
data = open(path, "rb").read()
o = op.SerializerOptions(); o.flags = 1; o.shallow = False
ser = op.Serializer(o, op.TypeList.open(types))
body = data[4:]
def walk_lazy(v):
    t = type(v).__name__
    if t == "LazyObject":
        for _, x in v.items(): walk_lazy(x)
    elif t == "LazyList":
        for x in v: walk_lazy(x)
def walk_eager(v, obj=kingsisle.Object):
    t = type(v)
    if t is obj:
        for _, x in v.items(): walk_eager(x)
    elif t is list:
        for x in v: walk_eager(x)
run = {
    "gamewire-eager": lambda: kingsisle.decode(data, types=tl),
    "gamewire-eager-walk": lambda: walk_eager(kingsisle.decode(data, types=tl)),
    "gamewire-lazy": lambda: kingsisle.decode(data, types=tl, lazy=True),
    "gamewire-lazy-walk": lambda: walk_lazy(kingsisle.decode(data, types=tl, lazy=True)),
    "katsuba-call": lambda: ser.deserialize(body),
    "katsuba-walk": lambda: walk_lazy(ser.deserialize(body)),
}[what]
"""

WORKLOADS = ["gamewire-eager", "gamewire-eager-walk", "gamewire-lazy", "gamewire-lazy-walk", "katsuba-call", "katsuba-walk"]
