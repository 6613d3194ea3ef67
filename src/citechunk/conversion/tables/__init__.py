"""Tables: what belongs to a table besides its grid (its caption lines) and how a table the
layout found is checked against the page's text layer."""
