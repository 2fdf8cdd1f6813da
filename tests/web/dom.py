"""A small DOM walk over rendered HTML (stdlib only): each element with its ancestors."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    ancestors: tuple[Element, ...]
    text: list[str] = field(default_factory=list)

    def has(self, name: str) -> bool:
        return name in self.attrs

    def get(self, name: str) -> str | None:
        return self.attrs.get(name)

    def within(self, attr: str) -> bool:
        """This element or one of its ancestors carries ``attr``."""
        return self.has(attr) or any(a.has(attr) for a in self.ancestors)

    @property
    def classes(self) -> set[str]:
        return set((self.get("class") or "").split())

    def all_text(self) -> str:
        return "".join(self.text)


class _Walker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[Element] = []
        self.elements: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = Element(tag, dict(attrs), tuple(self.stack))
        self.elements.append(el)
        if tag not in VOID:
            self.stack.append(el)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append(Element(tag, dict(attrs), tuple(self.stack)))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return
        raise AssertionError(f"</{tag}> closes nothing")

    def handle_data(self, data: str) -> None:
        for el in self.stack:
            el.text.append(data)


def parse(html: str) -> list[Element]:
    walker = _Walker()
    walker.feed(html)
    walker.close()
    assert not walker.stack, f"unclosed: {[e.tag for e in walker.stack]}"
    return walker.elements


def having(elements: list[Element], attr: str) -> list[Element]:
    return [e for e in elements if e.has(attr)]
