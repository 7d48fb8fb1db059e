"""Parse seeded free-text survey records with the pandas string accessor (.str): split, strip, extract, replace,
contains, len, and an ordered Categorical of ratings."""

import numpy as np
import pandas as pd

CITIES = ["berlin", "lagos", "lima", "osaka", "perth"]
DOMAINS = ["Example.org", "uni-x.EDU", "MAIL.net"]
VOCAB = ["slow", "friendly", "price", "pricey", "clean", "late", "staff", "noisy"]
LABELS = ["poor", "fair", "good", "very good", "excellent"]


def records(scn):
    """The raw lines, drawn as the summary states (vectorised draws, in order)."""
    rng = np.random.default_rng(int(scn["seed"]))
    n = int(scn["n_records"])
    city = rng.integers(0, int(scn["n_cities"]), n)
    style = rng.integers(0, 3, n)
    lpad, rpad = rng.integers(0, 3, n), rng.integers(0, 3, n)
    age = rng.integers(18, 90, n)
    income = np.rint(rng.lognormal(np.log(float(scn["income_median"])), 0.5, n) / 100.0).astype(int) * 100
    rating = np.clip(np.rint(rng.normal(float(scn["rating_mean"]), 1.0, n)), 1, 5).astype(int)
    missing = rng.random(n) < float(scn["missing_fraction"])
    domain = rng.integers(0, 3, n)
    n_words = rng.integers(1, 6, n)
    words = rng.integers(0, len(VOCAB), int(n_words.sum()))
    lines, k = [], 0
    for i in range(n):
        c = CITIES[city[i]]
        c = (c, c.upper(), c.title())[style[i]]
        comment = " ".join(VOCAB[w] for w in words[k : k + n_words[i]])
        k += n_words[i]
        inc = "n/a" if missing[i] else f"{income[i]:,} EUR"
        lines.append(
            f"{' ' * lpad[i]}{c}{' ' * rpad[i]}| age={age[i]} | income={inc} | rating={rating[i]}/5 | "
            f"email=user{i}@{DOMAINS[domain[i]]} | note: {comment[0].upper()}{comment[1:]}"
        )
    return pd.Series(lines, dtype="string")


def main(scn):
    s = records(scn)
    parts = s.str.split("|", expand=True)
    df = pd.DataFrame({"city": parts[0].str.strip().str.lower()})
    df["age"] = s.str.extract(r"age=(\d+)", expand=False).astype(int)
    df["income"] = s.str.extract(r"income=([\d,]+) EUR", expand=False).str.replace(",", "", regex=False).astype(float)
    rating = s.str.extract(r"rating=(\d)/5", expand=False).astype(int)
    df["rating"] = pd.Categorical.from_codes(rating - 1, categories=LABELS, ordered=True)
    df["domain"] = s.str.extract(r"@([\w.-]+)", expand=False).str.lower()
    df["note"] = s.str.split("note: ", n=1).str[1]
    kw = str(scn["keyword"])
    has_kw = df["note"].str.contains(rf"\b{kw}\b", case=False, regex=True)

    per_city = []
    for city, g in df.groupby("city", sort=True):
        inc = g["income"].dropna()
        per_city.append(
            {
                "city": city,
                "n": int(len(g)),
                "mean_age": float(g["age"].mean()),
                "median_income": float(inc.median()) if len(inc) else 0.0,
                "share_good_or_better": float((g["rating"] >= "good").mean()),
            }
        )
    counts = df["rating"].value_counts(sort=False)
    return {
        "n_missing_income": int(df["income"].isna().sum()),
        "per_city": per_city,
        "rating_counts": {lab: int(counts[lab]) for lab in LABELS},
        "rating_median_label": str(df["rating"].sort_values().iloc[(len(df) - 1) // 2]),
        "keyword_share": float(has_kw.mean()),
        "mean_words_per_note": float(df["note"].str.split().str.len().mean()),
        "longest_note_chars": int(df["note"].str.len().max()),
        "domain_counts": {d: int(v) for d, v in df["domain"].value_counts().sort_index().items()},
    }
