import numpy as np

MAX_AXES: int

def move(
    src: np.ndarray,
    dst: np.ndarray,
    size: int,
    src_step: np.ndarray,
    dst_step: np.ndarray,
    start: np.ndarray,
    count: np.ndarray,
    threads: int | None = None,
) -> None: ...
