"""Facts copied from the Lith seed text (Mycake's rules), so tests never read ../shared.

``BRIEF_TABLE``: the rules brief's "distribution of hands" table, per deck: category -> (count,
{qualifier: count}) for the rows that list a qualifier breakdown. ``BRIEF_EXAMPLES``: for each
category, the rules brief's two example hands, the upper one beating the lower one.
"""

# (count with Pawns and Courts, breakdown), (count without, breakdown)
BRIEF_TABLE = {
    "extended": {
        "Doubly Kindred": (1, {}),
        "Running Twin Flush": (2, {"kindred": 1, "neither": 1}),
        "Running Totum": (2, {}),
        "Pure Twin Flush": (3, {"fortune": 1, "neither": 2}),
        "Full Spread Trio": (4, {}),
        "Totum Trio": (4, {}),
        "Full Spread Pair": (5, {}),
        "Full Spread": (9, {}),
        "Impure Twin Flush": (25, {"kindred": 6, "fortune": 3, "neither": 16}),
        "Totum Pair": (25, {"kindred": 3, "neither": 22}),
        "Trio": (48, {"kindred": 1, "fortune": 8, "neither": 39}),
        "Totum": (89, {"kindred": 13, "neither": 76}),
        "Running Single Flush": (98, {"kindred": 9, "fortune": 24, "neither": 65}),
        "Kindred Pair": (115, {}),
        "Single Flush Pair": (144, {"kindred": 8, "fortune": 30, "neither": 106}),
        "Kindred Single Flush": (172, {}),
        "Run": (294, {"kindred": 29, "fortune": 58, "neither": 207}),
        "Fortune Single Flush": (299, {}),
        "Fortune Pair": (366, {}),
        "Kindred": (655, {}),
        "Fortune": (985, {}),
        "Single Flush": (1410, {}),
        "Pair": (1949, {}),
        "Void": (6540, {}),
    },
    "basic": {
        "Doubly Kindred": (1, {}),
        "Running Twin Flush": (0, {"kindred": 0, "neither": 0}),
        "Running Totum": (2, {}),
        "Pure Twin Flush": (3, {"fortune": 1, "neither": 2}),
        "Full Spread Trio": (4, {}),
        "Totum Trio": (4, {}),
        "Full Spread Pair": (5, {}),
        "Full Spread": (3, {}),
        "Impure Twin Flush": (0, {"kindred": 0, "fortune": 0, "neither": 0}),
        "Totum Pair": (25, {"kindred": 3, "neither": 22}),
        "Trio": (40, {"kindred": 1, "fortune": 4, "neither": 35}),
        "Totum": (29, {"kindred": 9, "neither": 20}),
        "Running Single Flush": (48, {"kindred": 2, "fortune": 12, "neither": 34}),
        "Kindred Pair": (75, {}),
        "Single Flush Pair": (0, {"kindred": 0, "fortune": 0, "neither": 0}),
        "Kindred Single Flush": (43, {}),
        "Run": (220, {"kindred": 24, "fortune": 42, "neither": 154}),
        "Fortune Single Flush": (110, {}),
        "Fortune Pair": (225, {}),
        "Kindred": (336, {}),
        "Fortune": (496, {}),
        "Single Flush": (512, {}),
        "Pair": (1362, {}),
        "Void": (3597, {}),
    },
}
BRIEF_TOTALS = {"extended": 13244, "basic": 7140}

# The one documented difference (docs/rules.md §2): eight extended-deck hands fit both Kindred
# Pair and Single Flush Pair; the ranked list puts Kindred Pair higher, the rules brief's table
# counted them as Single Flush Pair (all eight are kindred).
KINDRED_SINGLE_FLUSH_PAIRS = 8

# category: (upper example, lower example), cards as the rules brief lists them (high to low in tie
# order). The rules brief misprints a few ranks and suits in its pictures; the names are right.
BRIEF_EXAMPLES = {
    "Doubly Kindred": (("The End", "The Market", "The Origin"), None),
    "Running Twin Flush": (
        ("The Island", "The Borderland", "The Darkness"),
        ("The Harvest", "The Pact", "The Diplomat"),
    ),
    "Running Totum": (
        ("The Merchant", "The Diplomat", "The Cave"),
        ("The Diplomat", "The Cave", "The Market"),
    ),
    "Pure Twin Flush": (
        ("The Pact", "The Diplomat", "The Mountain"),
        ("The Betrayal", "The Soldier", "The Battle"),
    ),
    "Full Spread Trio": (
        ("The Diplomat", "The Mill", "The Betrayal"),
        ("The Forest", "The Discovery", "The Soldier"),
    ),
    "Totum Trio": (
        ("The Journey", "The Painter", "The Savage"),
        ("The Author", "The Desert", "The Origin"),
    ),
    "Full Spread Pair": (
        ("The Betrayal", "The Mountain", "The Sailor"),
        ("The Castle", "The Journey", "The Savage"),
    ),
    "Full Spread": (
        ("The Watchman", "The Origin", "Ace of Suns"),
        ("The Darkness", "The Chance Meeting", "The Painter"),
    ),
    "Impure Twin Flush": (
        ("The Consul", "The Watchman", "The Author"),
        ("The Island", "The Penitent", "The Desert"),
    ),
    "Totum Pair": (
        ("The Merchant", "The Lunatic", "The Penitent"),
        ("The Forest", "The Discovery", "The Battle"),
    ),
    "Trio": (
        ("The End", "The Calamity", "The Windfall"),
        ("The Consul", "The Island", "The Window"),
    ),
    "Totum": (
        ("The Pact", "The Battle", "The Origin"),
        ("The Light Keeper", "The Savage", "Ace of Moons"),
    ),
    "Running Single Flush": (
        ("The Sea", "The Island", "The Borderland"),
        ("The Forest", "The Sailor", "The Savage"),
    ),
    "Kindred Pair": (
        ("The Huntress", "The Bard", "The Merchant"),
        ("The Castle", "The Cave", "The Mountain"),
    ),
    "Single Flush Pair": (
        ("The Island", "The Window", "The Desert"),
        ("The Harvest", "The Borderland", "Ace of Leaves"),
    ),
    "Kindred Single Flush": (
        ("The Calamity", "The Rite", "The Battle"),
        ("The Diplomat", "The Lunatic", "The Author"),
    ),
    "Run": (
        ("The Painter", "The Origin", "Ace of Suns"),
        ("The Cave", "The Lunatic", "The Forest"),
    ),
    "Fortune Single Flush": (
        ("The Bard", "The Castle", "The Discovery"),
        ("The Rite", "The Diplomat", "The Forest"),
    ),
    "Fortune Pair": (
        ("The Consul", "The Window", "The Journey"),
        ("The Lunatic", "The Market", "Ace of Waves"),
    ),
    "Kindred": (
        ("The Windfall", "The Betrayal", "The Chance Meeting"),
        ("The Merchant", "The Soldier", "The Savage"),
    ),
    "Fortune": (
        ("The End", "The Watchman", "Ace of Moons"),
        ("The Darkness", "The Chance Meeting", "The Penitent"),
    ),
    "Single Flush": (
        ("The Calamity", "The Battle", "The Desert"),
        ("The Pact", "The Journey", "The Author"),
    ),
    "Pair": (
        ("The Diplomat", "The Mill", "The Origin"),
        ("The Pact", "The Forest", "The Discovery"),
    ),
    "Void": (
        ("The Consul", "The Painter", "Ace of Wyrms"),
        ("The Borderland", "The Castle", "The Discovery"),
    ),
}

# Where the rule text overrides the rules brief's label for an example (docs/rules.md §2).
EXAMPLE_OVERRIDES = {("The Island", "The Window", "The Desert"): "Kindred Pair"}
