"""Reading and writing a JSON file swr writes through its model: the file is the model's dump in the one JSON
style (swr.core.jsonfile), so that a file read back and written again is byte-identical; a file that is not
its model's is one line naming the file and the field."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, PlainValidator, ValidationError

from swr.core.errors import SwrError, first_problem, load_json
from swr.core.jsonfile import dump_json

M = TypeVar("M", bound=BaseModel)


def _number(value: Any) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("Input should be a number")
    return value


# A number as its writer computed it: an int stays an int in the file, a float a float (a plain `float` field
# would write 1 as 1.0); one check, so that a bad value names its field and not a member of a union.
Number = Annotated[int | float, PlainValidator(_number)]


def dump_record(model: BaseModel) -> str:
    """The file's text: only the fields its writer set (a key it leaves out stays out), sorted keys."""
    return dump_json(model.model_dump(by_alias=True, exclude_unset=True))


def parse_record(model: type[M], doc: object, path: str | Path) -> M:
    """A file's JSON value as its model; what does not fit is one line naming the file and the field."""
    try:
        return model.model_validate(doc)
    except ValidationError as e:
        msg, where = first_problem(e)
        raise SwrError(msg, file=path, field=where) from None


def read_record(model: type[M], path: Path) -> M:
    """A file as its model (missing, unreadable or invalid JSON: one line naming it)."""
    return parse_record(model, load_json(path), path)


def write_record(path: Path, model: BaseModel) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump_record(model))
