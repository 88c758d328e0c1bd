"""English words left on a page read in another language: `english_words(text)` finds them, a pure
function the browser tests call on every page they walk in French, German, Dutch, Spanish and Italian
(tests/browser/test_every_language.py), and tests/app/test_english_words.py checks by itself (every
translation of the five catalogues passes it; English sentences do not).

The list holds common English words that are no ordinary word of fr, de, nl, es or it: "the", "your",
"turn", "draw", "waiting"... A word the languages share, or a loanword a translation may keep, is left
out ("in", "hand", "pause", "menu", "chat", "bot", "start", "over", "is", "was", "will"), so a finding
is English to be translated, not a guess. Names are no words: the games' (Mojo, Moby Trick, Mooki
Island, Mokuru), Motable's, and the players' a test gives."""

# ruff: noqa: RUF001, RUF003 (the languages' own apostrophes)

from __future__ import annotations

import re
from collections.abc import Iterable

# The names every page may say as they are printed, whatever its language.
NAMES = ("Moby Trick", "Mooki Island", "Mokuru", "Mojo", "Motable", "Mojo Time")

# Words with their apostrophes inside ("don't", "you're"; "dell’inizio" stays one word, so Italian and
# French elisions make no English "all" or "d").
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")

# English words that no other of the five languages writes as an ordinary word. Left out on purpose,
# because they are one there (or a loanword a translation may keep):
# - words of fr/de/nl/es/it: a an as de die do en he her in is me no of on or so we but had has been
#   let come see want put mine will was also still not most over per plus six four open once red long
#   last lost won sent made such later win families;
# - spelled alike in one of them: page pages pile piles deck table tables point points score scores
#   error visible minute minutes second invite total face rest;
# - loanwords: hand start match name type code message email alert online offline bot bots robot chat
#   pause menu link team set bonus ok top trick tricks host show sorry finish replay password passkey
#   passkeys string enter.
# Each translation of the catalogues in locale/ passes (tests/app/test_english_words.py).
_LIST = """success successes perform performs performed confirmed disputed stays chosen twin valid

the your yours you you're you've you'll you'd we're we'll they they're their theirs them
she his him it's this that these those there here where when what which who whom whose why
how with without and from into onto upon about above after before again against until while
during through each every any some many much other others only just yet already now then than too
very well would should could can can't cannot must shall have having being are were
be does did done don't doesn't didn't isn't aren't wasn't weren't won't wouldn't couldn't shouldn't
haven't hasn't hadn't i'm i've i'll let's get gets got going gone comes coming came
sees seen saw look looks make makes wants need needs know knows think say says said tell
ask asks give gives gave keep keeps kept showing shown try tries use uses used
nobody someone somebody everyone everybody anyone anybody nothing something everything anything
our ours us my myself yourself themselves itself
turn turns play plays played playing player players card cards draw draws drew drawn drawing
discard discards discarded waiting wait waits round rounds scored
winner winners wins lose loses losing seat seats seated take takes took taken taking
takeback back rules rule game games join joins joined joining share shared invited friends
friend new move moves moved moving belt belts witness witnesses island side sides family
dealer deal deals dealt shuffle shuffled target goal reach reaches reached ends end
ended finished finishes leave leaves leaving left leading lead leads summary since away
screen room rooms settings language theme dark light alerts quiet hours hour day days seconds
clock clocks yes cancel close closed home forward step steps hide more next first one two
three five seven eight nine twelve twenty hundred
copy copied send names spectator spectators watch watching ready
rematch undo asked answer answered request requests requested approve approved deny denied
allow allowed agree agreed
short hold holds holding value values blue green yellow black white grey gray
down up out off if for to by at all
twice never always sometimes often
please thanks thank welcome hello hi goodbye bye
address nowhere found missing wrong right
opens opened closing hidden
it using add adds added whole number may time times
advanced basic battle legendary progress darkness imposed steal steals choose chooses chosen whale whales
narwhal narwhals trump trumps pearl pearls sun moon seashell leaf known unmute connecting reconnecting
remove elsewhere pick picks withdraw immunity bonuses trophy trophies spider spiders free paused
few dismiss performers doom missed given stolen stole eyes shut both hands row pending tied expected
rewards paid full aid verify reaching words crossroad follow follows highest lowest higher lower aside
youngest oldest misclicked happened happen
"""
ENGLISH: frozenset[str] = frozenset(_LIST.split())


def english_words(text: str, names: Iterable[str] = ()) -> list[str]:
    """The English words of `text` (as written, in the order read), once each; `names` (the players'
    names) and the games' names are no words."""
    for name in sorted({*NAMES, *names}, key=len, reverse=True):
        # A name inside a compound keeps its words apart by a hyphen ("Mooki-Island-Poster").
        spelled = r"[\s\-‑]+".join(re.escape(part) for part in name.split())
        text = re.sub(rf"(?<!\w){spelled}(?!\w)", " ", text, flags=re.IGNORECASE)
    found: list[str] = []
    seen: set[str] = set()
    for word in _WORD.findall(text):
        key = word.lower().replace("’", "'")
        # A possessive ("Ann's", "the players'") is the word it is made of.
        if key.endswith("'s"):
            key = key[:-2]
        if key in ENGLISH and key not in seen:
            seen.add(key)
            found.append(word)
    return found
