"""Model files to the workers: no shared file system is assumed.

An agent spec that loads a file or folder (``ppo:PATH``, ``solved:DIR``, or a parameter's:
``ismcts:prior=PATH``, ``ismcts:policy=ppo:PATH``) is packed on this machine (a gzipped tar,
put once in Ray's object store) and unpacked on a worker into a folder named by its content's
hash, where later tasks on that node find it again. The worker builds the agent from the
copy; the agent keeps its label (the spec as given) everywhere in results.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import shutil
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from tablegame.registry import parameter_files, split_spec

__all__ = [
    "Shipment",
    "digest_of",
    "lay_out",
    "pack",
    "ship",
    "unpack",
    "unpack_into",
    "unpacked",
]


def pack(path: Path) -> bytes:
    """A file or a folder's files as a gzipped tar (``ValueError`` if there is none).

    The same content packs to the same bytes at any time: the gzip header's time is fixed,
    so a node's copy is named by the content alone and is found again by a later pack."""
    path = Path(path)
    if not path.exists():
        raise ValueError(f"{str(path)!r}: no such file or folder to send to the workers")
    buffer = io.BytesIO()
    with (
        gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as compressed,
        tarfile.open(fileobj=compressed, mode="w") as tar,
    ):
        tar.add(path, arcname=path.name, recursive=True)
    return buffer.getvalue()


def digest_of(packed: bytes) -> str:
    """The name of a packed content's copy on a node."""
    return hashlib.sha256(packed).hexdigest()[:20]


def unpacked(digest: str) -> Path | None:
    """This node's copy of the content named ``digest``, if it was unpacked here already."""
    root = Path(tempfile.gettempdir()) / "decktet-ray" / digest
    if not (root / ".complete").exists():
        return None
    (name,) = [p for p in root.iterdir() if p.name != ".complete"]
    return root / name


def unpack(packed: bytes) -> Path:
    """Unpack what :func:`pack` made, once per content on this node; the path of the copy."""
    digest = digest_of(packed)
    root = Path(tempfile.gettempdir()) / "decktet-ray" / digest
    if unpacked(digest) is None:
        root.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f"{digest}-", dir=root.parent))
        with tarfile.open(fileobj=io.BytesIO(packed), mode="r:gz") as tar:
            tar.extractall(staging, filter="data")
        (staging / ".complete").touch()
        try:
            staging.rename(root)
        except OSError:  # another worker unpacked the same content first
            shutil.rmtree(staging, ignore_errors=True)
    return unpacked(digest)


def unpack_into(packed: bytes, folder: Path) -> Path:
    """Unpack what :func:`pack` made into ``folder``, replacing what was there under the same
    name; the path of the unpacked file or folder."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(packed), mode="r:gz") as tar:
        (name,) = {member.name.split("/")[0] for member in tar.getmembers()}
        target = folder / name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
        tar.extractall(folder, filter="data")
    return target


def ship(paths: list[Path]) -> dict[str, Any]:
    """Files and folders for the workers (on the driver, connected to Ray): each packed and
    put in Ray's object store once, by its path here (relative to the current folder)."""
    import ray

    return {str(path): ray.put(pack(path)) for path in paths}


def lay_out(shipped: dict[str, Any]) -> None:
    """On a worker: each file or folder of :func:`ship` unpacked at its path, relative to the
    current folder (a task's scratch folder)."""
    import ray

    for relative, ref in shipped.items():
        unpack_into(ray.get(ref), Path(relative).parent)


class Shipment:
    """The agent specs of a job, with the files they load packed for the workers."""

    def __init__(self, specs: tuple[str, ...], game: str) -> None:
        """Pack the files ``specs`` load (on the driver, connected to Ray)."""
        import ray

        self.specs = specs
        # per spec: None (it loads nothing), or (agent name, key=value parameters, files);
        # files: {where: (prefix, content digest, object ref)}, where -1 is the spec's own
        # path and i its parameter i, which is the prefix and the path
        self.parts: list[tuple[str, list[str], dict] | None] = []
        for spec in specs:
            name, path, parameters = split_spec(spec, game)
            files = {}
            wanted = {i: prefix_path for i, prefix_path in parameter_files(spec, game).items()}
            if path is not None:
                wanted[-1] = ("", path)
            for where, (prefix, file) in wanted.items():
                packed = pack(Path(file))
                files[where] = (prefix, digest_of(packed), ray.put(packed))
            self.parts.append((name, parameters, files) if files else None)

    def local_specs(self) -> tuple[str, ...]:
        """On a worker: the specs rewritten to load this node's copies of the files (fetched
        and unpacked by the first task on the node that needs them)."""
        import ray

        def copy_of(digest: str, ref: Any) -> str:
            return str(unpacked(digest) or unpack(ray.get(ref)))

        out = []
        for spec, part in zip(self.specs, self.parts, strict=True):
            if part is None:
                out.append(spec)
                continue
            name, parameters, files = part
            parameters = list(parameters)
            for where, (prefix, digest, ref) in files.items():
                if where >= 0:
                    parameters[where] = prefix + copy_of(digest, ref)
            head = [name]
            if -1 in files:
                head.append(copy_of(*files[-1][1:]))
            out.append(":".join([*head, *parameters]))
        return tuple(out)
