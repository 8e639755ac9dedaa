import numpy as np
from numpy.typing import NDArray

def write_boxes(
    starts: NDArray[np.int64],
    counts: NDArray[np.int64],
    first: NDArray[np.int64],
    dims: NDArray[np.int64],
    steps: NDArray[np.int64],
    out: NDArray[np.int64],
    threads: int | None = None,
) -> None: ...
