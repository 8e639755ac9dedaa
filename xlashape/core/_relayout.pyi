import numpy as np

MAX_AXES: int


def empty(shape: tuple[int, ...], dtype: np.typing.DTypeLike) -> np.ndarray: ...

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
