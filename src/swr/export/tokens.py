"""Token counts for the SFT export's length filter: a tiktoken encoding (default `o200k_base`), a local HF
`tokenizers` JSON file, or a Hugging Face tokenizer by name when `transformers` is installed. Loads nothing
from a hub: a tokenizer that is not on this machine is a one-line error naming `--tokenizer`."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from swr.core.errors import SwrError

DEFAULT_TOKENIZER = "o200k_base"
# tiktoken caches an encoding's file under sha1(its download address); litellm (a PyPI package) ships the
# OpenAI encodings' files under those names, which tiktoken still checks against their sha256.
TIKTOKEN_FILES = "https://openaipublic.blob.core.windows.net/encodings/{}.tiktoken"
SHIPPED_CACHE = ("litellm", "litellm_core_utils", "tokenizers")
PER_MESSAGE = 4  # role and separators per message, as OpenAI's counting guide has it for its chat models

Counter = Callable[[list[dict[str, Any]], list[dict[str, Any]]], int]


def shipped_cache(name: str) -> Path | None:
    """A directory of tiktoken's cache files that an installed package ships and that holds `name`'s file."""
    spec = find_spec(SHIPPED_CACHE[0])
    if spec is None or not spec.submodule_search_locations:
        return None
    d = Path(list(spec.submodule_search_locations)[0], *SHIPPED_CACHE[1:])
    key = hashlib.sha1(TIKTOKEN_FILES.format(name).encode()).hexdigest()
    return d if (d / key).is_file() else None


@contextmanager
def _cache_dir(d: Path | None) -> Iterator[None]:
    """TIKTOKEN_CACHE_DIR set to d while an encoding loads (a user's own setting wins)."""
    if d is None or "TIKTOKEN_CACHE_DIR" in os.environ:
        yield
        return
    os.environ["TIKTOKEN_CACHE_DIR"] = str(d)
    try:
        yield
    finally:
        os.environ.pop("TIKTOKEN_CACHE_DIR", None)


def tiktoken_encode(name: str) -> Callable[[str], int]:
    """len(tokens) of a text under a tiktoken encoding: the user's cache, a shipped copy, else a download."""
    import tiktoken

    if name not in tiktoken.list_encoding_names():
        raise SwrError(f"unknown tiktoken encoding {name!r} and not a tokenizer file", field="--tokenizer")
    try:
        with _cache_dir(shipped_cache(name)):
            enc = tiktoken.get_encoding(name)
    except Exception as e:  # noqa: BLE001 - requests' and tiktoken's errors alike: the file is not to be had
        raise SwrError(
            f"cannot load tiktoken encoding {name!r} ({type(e).__name__}); set TIKTOKEN_CACHE_DIR to "
            "a directory holding its file, or pass a tokenizer.json",
            field="--tokenizer",
        ) from None
    return lambda text: len(enc.encode(text, disallowed_special=()))


def file_encode(path: Path) -> Callable[[str], int]:
    """len(tokens) under an HF `tokenizers` JSON file."""
    from tokenizers import Tokenizer

    try:
        tok = Tokenizer.from_file(str(path))
    except Exception as e:  # noqa: BLE001 - the Rust library raises its own exception type
        raise SwrError(f"not a tokenizers JSON file: {e}", file=path, field="--tokenizer") from None
    return lambda text: len(tok.encode(text, add_special_tokens=False).ids)


def flat_counter(encode: Callable[[str], int]) -> Counter:
    """Tokens of a conversation without a chat template: each message's content and tool calls, PER_MESSAGE
    more per message, and the tool definitions as JSON (an estimate of the rendered length)."""

    def count(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> int:
        n = encode(json.dumps(tools, sort_keys=True)) if tools else 0
        for m in messages:
            n += PER_MESSAGE + encode(m.get("content") or "")
            for c in m.get("tool_calls", []):
                n += encode(c["function"]["name"]) + encode(c["function"]["arguments"])
        return n

    return count


def hf_counter(name: str) -> Counter:
    """Tokens of the conversation as the model's own chat template renders it (transformers, local files
    only); without a template, the flat count under its tokenizer."""
    if find_spec("transformers") is None:
        raise SwrError(f"{name!r}: a Hugging Face tokenizer needs `transformers` installed", field="--tokenizer")
    from transformers import AutoTokenizer

    try:
        # Any: transformers types apply_chat_template's result as a union over its flags (return_dict, tokenize)
        tok: Any = AutoTokenizer.from_pretrained(name, local_files_only=True)
    except Exception as e:  # noqa: BLE001 - OSError, ValueError, hub errors: not on this machine
        raise SwrError(f"no local tokenizer {name!r} ({type(e).__name__})", field="--tokenizer") from None
    if not tok.chat_template:
        return flat_counter(lambda text: len(tok.encode(text, add_special_tokens=False)))

    def count(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> int:
        ids = tok.apply_chat_template(messages, tools=tools or None, tokenize=True, return_dict=True)["input_ids"]
        return len(ids)

    return count


def token_counter(spec: str | None) -> Counter:
    """The counter `--tokenizer` names: a tiktoken encoding name, a tokenizer.json path, or an HF tokenizer
    (a local directory or a cached hub name)."""
    spec = spec or DEFAULT_TOKENIZER
    path = Path(spec)
    if path.is_file():
        return flat_counter(file_encode(path))
    if path.is_dir() or "/" in spec:
        return hf_counter(spec)
    return flat_counter(tiktoken_encode(spec))
