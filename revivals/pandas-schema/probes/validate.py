"""Probe: the warnings pandas_schema reports for fixed data frames, as one JSON object (recorded from the
original under pandas 1.x; a port must report the same under pandas 2.x). Covers ordered and unordered
schemas, subsets of columns, empty cells, categorical and numeric columns and combined validations."""
import json
from io import StringIO

import numpy as np
import pandas as pd

from pandas_schema import Column, Schema
from pandas_schema.validation import (CanConvertValidation, CustomElementValidation, CustomSeriesValidation,
                                      DateFormatValidation, InListValidation, InRangeValidation, IsDistinctValidation,
                                      IsDtypeValidation, LeadingWhitespaceValidation, MatchesPatternValidation,
                                      TrailingWhitespaceValidation)

CSV = """given_name,family_name,age,sex,start,code
Gerald ,Hampton,82,Male,2019-01-05,A-12
Yuri,Ogutu,19,Female,2019/01/06,B-7
Rachel,Valdez,21,Female,2019-13-01,a-3
Paula, Valdez,-5,female,,A-12
Lindsay,,49,Other,2020-02-29,Z-99
"""


def report(warnings):
    """Each warning as its message and where it points."""
    return [{"text": str(w), "row": None if w.row is None else int(w.row), "column": w.column} for w in warnings]


df = pd.read_csv(StringIO(CSV), dtype=str, keep_default_na=False)
people = Schema([
    Column("given_name", [LeadingWhitespaceValidation(), TrailingWhitespaceValidation()]),
    Column("family_name", [LeadingWhitespaceValidation(), TrailingWhitespaceValidation()], allow_empty=True),
    Column("age", [InRangeValidation(0, 120)]),
    Column("sex", [InListValidation(["Male", "Female", "Other"])]),
    Column("start", [DateFormatValidation("%Y-%m-%d")], allow_empty=True),
    Column("code", [MatchesPatternValidation(r"^[A-Z]-\d{1,2}$"), IsDistinctValidation()]),
])
# the same columns by position, under other header names
ordered = Schema([Column(c.name.upper(), c.validations, c.allow_empty) for c in people.columns], ordered=True)
swapped = df[["family_name", "given_name", "age", "sex", "start", "code"]]

nums = pd.DataFrame({
    "x": [1.5, np.nan, 7.0, -2.0, 1e6],
    "n": np.array([3, 4, 5, 6, 7], dtype="int64"),
    "cat": pd.Categorical(["lo", "hi", None, "mid", "lo"]),
})
numeric = Schema([
    Column("x", [InRangeValidation(-1, 100) | CustomElementValidation(lambda v: v == 1e6, "is not a million")],
           allow_empty=True),
    Column("n", [IsDtypeValidation(np.integer), CustomSeriesValidation(lambda s: s % 2 == 1, "is even"),
                 ~InRangeValidation(5, 6)]),
    Column("cat", [InListValidation(["lo", "mid"])], allow_empty=True),
], ordered=True)
wrong = Schema([Column("x", [IsDtypeValidation(np.integer)]), Column("n"), Column("cat")], ordered=True)

out = {
    "people": report(people.validate(df)),
    "people_subset": report(people.validate(df, columns=["age", "code"])),
    "ordered": report(ordered.validate(df)),
    "ordered_swapped": report(ordered.validate(swapped)),
    "ordered_too_few": report(ordered.validate(df.iloc[:, :5])),
    "case_insensitive": report(Schema([Column("sex", [InListValidation(["male", "female"], case_sensitive=False)])])
                               .validate(df[["sex"]])),
    "convert": report(Schema([Column("age", [CanConvertValidation(int)]),
                              Column("start", [CanConvertValidation(float)])], ordered=True)
                      .validate(df[["age", "start"]])),
    "numeric": report(numeric.validate(nums)),
    "dtype": report(wrong.validate(nums)),
}
print(json.dumps(out, sort_keys=True))
