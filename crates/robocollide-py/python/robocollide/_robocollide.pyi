"""Type stubs of robocollide's native module (re-exported by ``robocollide``)."""

from os import PathLike
from typing import Any, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

Vec3 = Union[Sequence[float], npt.ArrayLike]
ArrayLike = npt.ArrayLike
Path = Union[str, PathLike[str]]
F64 = npt.NDArray[np.float64]

__version__: str

class RobocollideError(ValueError):
    """Bad input: the message names the file, line or field at fault."""

class PlanningError(RuntimeError):
    """No path: an invalid start or goal, or none within the planner's limits."""

class Shape:
    """Any primitive; compare by value, pickle by constructor arguments."""
    @property
    def kind(self) -> str: ...

class Point(Shape):
    def __init__(self, position: Vec3) -> None: ...
    @property
    def position(self) -> F64: ...

class Segment(Shape):
    def __init__(self, a: Vec3, b: Vec3) -> None: ...
    @property
    def a(self) -> F64: ...
    @property
    def b(self) -> F64: ...

class Sphere(Shape):
    def __init__(self, center: Vec3, radius: float) -> None: ...
    @property
    def center(self) -> F64: ...
    @property
    def radius(self) -> float: ...

class Capsule(Shape):
    """The points within ``radius`` of the segment ``a``–``b``."""
    def __init__(self, a: Vec3, b: Vec3, radius: float) -> None: ...
    @property
    def a(self) -> F64: ...
    @property
    def b(self) -> F64: ...
    @property
    def radius(self) -> float: ...

class Cylinder(Shape):
    """A flat-capped cylinder with axis ``a``–``b`` (non-zero length)."""
    def __init__(self, a: Vec3, b: Vec3, radius: float) -> None: ...
    @property
    def a(self) -> F64: ...
    @property
    def b(self) -> F64: ...
    @property
    def radius(self) -> float: ...

class Box(Shape):
    """An oriented box; ``rpy`` is URDF's fixed-axis roll, pitch, yaw (radians), ``rotation``
    a 3×3 matrix whose columns are the box's axes; neither: axis-aligned."""
    def __init__(
        self,
        center: Vec3,
        half_extents: Vec3,
        rpy: Optional[Vec3] = None,
        rotation: Optional[ArrayLike] = None,
    ) -> None: ...
    @property
    def center(self) -> F64: ...
    @property
    def half_extents(self) -> F64: ...
    @property
    def rotation(self) -> F64: ...

class Plane(Shape):
    """The half-space below the plane through ``point`` with outward ``normal``."""
    def __init__(self, point_on: Vec3, normal: Vec3) -> None: ...
    @property
    def point(self) -> F64: ...
    @property
    def normal(self) -> F64: ...

def parse_shape(text: str) -> Shape:
    """A shape from the text syntax, e.g. ``"capsule 0,0,0 1,0,0 0.1"``."""

class Separation:
    distance: float
    @property
    def point_a(self) -> F64: ...
    @property
    def point_b(self) -> F64: ...
    @property
    def normal(self) -> F64: ...
    @property
    def collision(self) -> bool: ...

class Separations:
    @property
    def distance(self) -> F64: ...
    @property
    def point_a(self) -> F64: ...
    @property
    def point_b(self) -> F64: ...
    @property
    def normal(self) -> F64: ...
    @property
    def collision(self) -> npt.NDArray[np.bool_]: ...
    def __len__(self) -> int: ...

class ShapeArray:
    def __init__(self, shapes: Sequence[Shape]) -> None: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> Shape: ...

def distance(a: Shape, b: Shape) -> Separation:
    """Signed distance, witness points and normal (``point_b - point_a = distance * normal``)."""

def distances(
    a: Union[ShapeArray, Shape, Sequence[Shape]], b: Union[ShapeArray, Shape, Sequence[Shape]]
) -> Separations:
    """``a[k]`` against ``b[k]``; a single shape on one side pairs with every shape of the other."""

def points(positions: ArrayLike) -> ShapeArray: ...
def spheres(centers: ArrayLike, radius: Union[float, ArrayLike]) -> ShapeArray: ...
def segments(a: ArrayLike, b: ArrayLike) -> ShapeArray: ...
def capsules(a: ArrayLike, b: ArrayLike, radius: Union[float, ArrayLike]) -> ShapeArray: ...
def cylinders(a: ArrayLike, b: ArrayLike, radius: Union[float, ArrayLike]) -> ShapeArray: ...
def boxes(
    centers: ArrayLike, half_extents: ArrayLike, rotations: Optional[ArrayLike] = None
) -> ShapeArray: ...

class Element:
    label: str
    robot: str
    body: str
    link: str
    kind: str

class PairReport:
    @property
    def distance(self) -> float: ...
    @property
    def pair_type(self) -> str: ...
    @property
    def a(self) -> Element: ...
    @property
    def b(self) -> Element: ...
    @property
    def labels(self) -> tuple[str, str]: ...
    @property
    def point_a(self) -> F64: ...
    @property
    def point_b(self) -> F64: ...
    @property
    def normal(self) -> F64: ...
    def to_dict(self) -> dict[str, Any]: ...

class CheckReport:
    @property
    def collision(self) -> bool: ...
    @property
    def closest(self) -> Optional[PairReport]: ...
    @property
    def close_pairs(self) -> list[PairReport]: ...
    @property
    def threshold(self) -> float: ...
    @property
    def pairs_checked(self) -> int: ...
    def to_dict(self) -> dict[str, Any]: ...

class SweepReport:
    @property
    def certified_free(self) -> bool: ...
    @property
    def collision(self) -> bool: ...
    @property
    def collision_intervals(self) -> list[tuple[float, float]]: ...
    @property
    def first_collision(self) -> Optional[tuple[float, PairReport]]: ...
    @property
    def closest(self) -> Optional[tuple[float, PairReport]]: ...
    @property
    def uncertified(self) -> list[tuple[float, float]]: ...
    @property
    def evaluations(self) -> int: ...
    @property
    def samples(self) -> dict[str, Any]: ...
    def plot(self, path: Path, title: Optional[str] = None) -> None: ...
    def to_dict(self) -> dict[str, Any]: ...

class VelocityFilter:
    def step(self, q: ArrayLike, qdot_des: ArrayLike) -> dict[str, Any]:
        """One control period: ``qdot``, ``status`` and the constrained ``pairs``."""

class Cell:
    """Robots and the world's obstacles; configurations in the cell file's units."""
    @property
    def name(self) -> str: ...
    @property
    def robots(self) -> list[str]: ...
    @property
    def dof(self) -> int: ...
    @property
    def joint_names(self) -> list[str]: ...
    @property
    def home(self) -> F64: ...
    @property
    def threshold(self) -> float: ...
    @property
    def limits(self) -> F64: ...
    def check(
        self, q: ArrayLike, threshold: Optional[float] = None, self_collision: bool = True
    ) -> CheckReport: ...
    def check_many(self, q: ArrayLike, self_collision: bool = True) -> dict[str, Any]:
        """``distance`` (m,), ``collision`` (m,), ``pair`` (m,) indices into ``pairs``
        (label tuples of the checked pairs)."""
    def frames(self, q: ArrayLike) -> dict[str, F64]: ...
    def link_names(self, robot: str) -> list[str]: ...
    def shapes(self, q: ArrayLike) -> list[tuple[str, str, Shape]]: ...
    def jacobian(self, q: ArrayLike, robot: str, link: str, point_on_link: Vec3) -> F64: ...
    def read_trajectory(self, path: Optional[Path] = None) -> tuple[F64, F64]: ...
    def sweep(
        self,
        times: ArrayLike,
        q: ArrayLike,
        guaranteed: bool = True,
        min_interval: float = 1e-6,
        self_collision: bool = True,
    ) -> SweepReport: ...
    def plan(
        self,
        start: ArrayLike,
        goal: ArrayLike,
        robot: Optional[str] = None,
        fixed: Optional[ArrayLike] = None,
        seed: int = 1,
        time_limit: float = 10.0,
        max_step: float = 1.0,
        clearance: float = 0.0,
        sampler: str = "uniform",
        balance: bool = True,
        point_shortcuts: int = 0,
    ) -> dict[str, Any]: ...
    def velocity_filter(
        self,
        influence: float = 0.15,
        safety: float = 0.05,
        max_approach: float = 0.5,
        dt: float = 0.01,
        max_joint_speed: float = 2.0,
        moving: Optional[Sequence[str]] = None,
        protect: Optional[dict[str, Sequence[str]]] = None,
        self_collision: bool = False,
        chains: Optional[dict[str, Sequence[str]]] = None,
        limp: Optional[dict[str, Sequence[str]]] = None,
        form: str = "damped",
    ) -> VelocityFilter:
        """Seed 002's filter. ``protect``: links per robot label; ``chains``: SRDF groups per
        robot label (``{"R1": ["LArm"]}``), protected against the rest of the robot, the QP
        over their joints; ``limp``: protected chains (or parts, ``LArm`` of ``Arms``) that
        move as commanded while the robot's stiff joints avoid; ``form``: ``"damped"``
        (ξ (d − d_s)/(d_i − d_s)) or ``"literal"`` (seed 002's (d − d_s)/Δt)."""

def load_cell(
    path: Path,
    srdf: Optional[Path] = None,
    scene: Optional[Path] = None,
    cylinders_as_capsules: bool = False,
) -> Cell: ...
def _cell_from_sources(
    path: Path,
    srdf: Optional[Path],
    scene: Optional[Path],
    cylinders_as_capsules: bool,
    files: dict[str, str],
) -> Cell: ...
def four_c_study(path: Optional[Path] = None) -> dict[str, Any]:
    """Seed 003's 4C self-collision study (``None``: the case study)."""
def _restore(kind: str, json: str) -> Any:
    """Rebuilds a pickled report."""

def _restore_sweep(
    cell: Cell,
    json: str,
    labels: list[tuple[str, str]],
    times: list[float],
    configs: list[list[float]],
    self_collision: bool,
) -> SweepReport:
    """Rebuilds a pickled sweep report."""
