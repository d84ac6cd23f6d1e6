import os
from typing import List, Optional

@dataclass
class Point:
    x: int
    y: int = 0

    def norm(self) -> float:
        return (self.x ** 2 + self.y ** 2) ** 0.5

async def fetch(urls: List[str], *, timeout: Optional[int] = None) -> dict:
    results = {u: await get(u) for u in urls if u}
    try:
        with open("f.txt") as f, lock:
            data = f.read()
    except (IOError, ValueError) as e:
        raise RuntimeError("bad") from e
    finally:
        pass
    return {**results, "n": len([x for x in data])}

lam = lambda a, b=2: a if a > b else b
print(f"{lam(1)!r:>10}", *os.environ, sep="")
match lam:
    case [1, *rest]:
        del rest
