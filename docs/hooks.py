"""MkDocs hooks for the documentation site (registered under ``hooks:`` in mkdocs.yml).

The pages in ``docs/`` read on their own in the repository too, so some link to files outside
``docs/`` (``../models/README.md``, a recipe in ``experiments/``). Those files are no pages of
the site, and ``mkdocs build --strict`` fails on a link to a file it does not know. So before a
page is converted, each link whose target lies outside ``docs/`` becomes a plain HTML link to
that file in the repository, relative to where the page is built (it opens from ``site/`` in a
clone); MkDocs leaves HTML links alone. A target that is no file or folder of the repository
(the folder holding mkdocs.yml) fails the build. Links between pages, anchors included, keep
MkDocs' own checks (``validation`` in mkdocs.yml).

The docstrings name objects with Sphinx roles (``:func:`name```, ``:class:`~pkg.mod.Name```),
which the API reference renders as the role before the name's code. Each becomes the code alone
(``~`` keeps the last part of the name), linked to the object where the reference documents it:
a name is looked up in the object whose docstring holds it, then in each object around it, then
as written (autorefs resolves that across pages, and leaves a name it does not know unlinked).
"""

from __future__ import annotations

import html
import os
import re
from urllib.parse import urlsplit

from mkdocs.exceptions import PluginError

# Fenced code blocks, and code spans (on one line): they hold no links.
_FENCE = re.compile(r"^(?P<fence>```+|~~~+).*?^(?P=fence)[ \t]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"(?P<ticks>`+)(?!`).+?(?<!`)(?P=ticks)(?!`)")
_MASK = re.compile(r"\x00(\d+)\x00")
# [text](target "title") and ![alt](target), once code spans are masked.
_INLINE = re.compile(
    r"(?P<bang>!?)\[(?P<text>[^\[\]\n]*)\]"
    r"\((?P<target><[^>\n]*>|[^()\s]+)(?P<title>\s+\"[^\"\n]*\")?\)"
)
# [label]: target "title"
_DEFINITION = re.compile(r"^(?P<lead> {0,3}\[[^\]\n]+\]:[ \t]*)(?P<target>\S+)", re.M)
_ROLE = re.compile(
    r":(?:py:)?(?:func|class|meth|mod|attr|data|exc|obj|const):"
    r"<code>(?P<tilde>~?)(?P<name>[\w.]+)</code>"
)
_HEADING = re.compile(r'id="(?P<id>[\w.]+)" class="doc doc-heading"')


def _is_within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


class _Page:
    """Rewrites the links of one page that leave ``docs/``."""

    def __init__(self, page, config) -> None:
        self.src_uri = page.file.src_uri
        self.docs_dir = os.path.abspath(config["docs_dir"])
        self.root = os.path.dirname(os.path.abspath(config["config_file_path"]))
        self.page_dir = os.path.dirname(os.path.join(self.docs_dir, page.file.src_uri))
        built = os.path.join(os.path.abspath(config["site_dir"]), page.file.dest_uri)
        self.built_dir = os.path.dirname(built)

    def url(self, target: str) -> str | None:
        """The URL that replaces ``target``, or None for a link MkDocs checks itself."""
        target = target.removeprefix("<").removesuffix(">")
        parts = urlsplit(target)
        if parts.scheme or parts.netloc or not parts.path or parts.path.startswith(("/", "\\")):
            return None
        resolved = os.path.normpath(os.path.join(self.page_dir, parts.path))
        if _is_within(resolved, self.docs_dir):
            return None
        if not _is_within(resolved, self.root) or not os.path.exists(resolved):
            raise PluginError(
                f"Doc file '{self.src_uri}' links to '{target}', outside docs/, but {resolved} "
                "is no file of the repository."
            )
        url = os.path.relpath(resolved, self.built_dir).replace(os.sep, "/")
        if parts.path.endswith("/"):
            url += "/"
        if parts.query:
            url += "?" + parts.query
        if parts.fragment:
            url += "#" + parts.fragment
        return url

    def inline(self, match: re.Match) -> str:
        url = self.url(match["target"])
        if url is None:
            return match[0]
        title = match["title"]
        title = f' title="{html.escape(title.strip()[1:-1])}"' if title else ""
        if match["bang"]:
            return f'<img src="{html.escape(url)}" alt="{html.escape(match["text"])}"{title}>'
        return f'<a href="{html.escape(url)}"{title}>{match["text"]}</a>'

    def definition(self, match: re.Match) -> str:
        url = self.url(match["target"])
        return match[0] if url is None else match["lead"] + url

    def prose(self, text: str) -> str:
        """Rewrite the links of text without fences; code spans stay as they are (a link's
        text may hold one)."""
        spans: list[str] = []

        def mask(match: re.Match) -> str:
            spans.append(match[0])
            return f"\x00{len(spans) - 1}\x00"

        masked = _CODE_SPAN.sub(mask, text)
        masked = _INLINE.sub(self.inline, masked)
        masked = _DEFINITION.sub(self.definition, masked)
        return _MASK.sub(lambda m: spans[int(m[1])], masked)

    def rewrite(self, markdown: str) -> str:
        out, last = [], 0
        for fence in _FENCE.finditer(markdown):
            out += [self.prose(markdown[last : fence.start()]), fence[0]]
            last = fence.end()
        out.append(self.prose(markdown[last:]))
        return "".join(out)


def on_page_markdown(markdown: str, page, config, files) -> str:
    return _Page(page, config).rewrite(markdown)


def _roles_to_links(html_text: str) -> str:
    headings = [(m.start(), m["id"]) for m in _HEADING.finditer(html_text)]
    ids = {identifier for _, identifier in headings}

    def link(match: re.Match) -> str:
        name = match["name"]
        code = f"<code>{name.rsplit('.', 1)[-1] if match['tilde'] else name}</code>"
        scope = ""
        for start, identifier in headings:
            if start > match.start():
                break
            scope = identifier
        while scope:
            if f"{scope}.{name}" in ids:
                return f'<autoref identifier="{scope}.{name}" optional>{code}</autoref>'
            scope = scope.rpartition(".")[0]
        if "." in name or name in ids:
            return f'<autoref identifier="{name}" optional>{code}</autoref>'
        return code

    return _ROLE.sub(link, html_text)


def on_page_content(html_text: str, page, config, files) -> str:
    return _roles_to_links(html_text)
