import os, sys as system
from a.b import c as d, e
from . import f

__all__ = ["Parser", "_x"]

MAX = 10
count: int = 0

@decorator
class Parser(Base):
    """Doc."""
    field = 1
    typed: int

    def parse(self): pass

    @property
    async def prop(self): pass

    class Inner: pass

def _helper(): pass

async def fetch(url): pass

if True:
    def cond(): pass

from __future__ import annotations

try:
    import ujson as json
except ImportError:
    import json

if TYPE_CHECKING:
    from typing import Any

x, y = 1, 2
_private = 3
