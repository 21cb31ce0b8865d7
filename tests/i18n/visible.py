"""What a reader of a page sees or hears: shared by the language tests."""

from html.parser import HTMLParser


class VisibleText(HTMLParser):
    """What a reader sees or hears: text outside script and style, and the labelling
    attributes."""

    LABELS = ("title", "aria-label", "placeholder", "alt")

    def __init__(self):
        super().__init__()
        self.parts, self.hidden = [], 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style", "template")
        self.parts += [value or "" for name, value in attrs if name in self.LABELS]

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style", "template")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)
