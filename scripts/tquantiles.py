#!/usr/bin/python3
"""Writes reference Student-t quantiles for internal/stats's tests.

The Go code inverts the regularized incomplete beta function (a continued
fraction); this script takes another road so the two can check each
other: for an integer number of degrees of freedom ν the t distribution
has a finite trigonometric series (Abramowitz & Stegun 26.7.3 and 26.7.4),
with θ = atan(t / √ν),

    A(t | ν) = P(|T| ≤ t)
      ν = 1:      2θ/π
      ν odd > 1:  (2/π)(θ + sin θ cos θ (1 + (2/3) cos²θ + … + (2·4⋯(ν−3))/(3·5⋯(ν−2)) cos^(ν−3) θ))
      ν even:     sin θ (1 + (1/2) cos²θ + … + (1·3⋯(ν−3))/(2·4⋯(ν−2)) cos^(ν−2) θ)

and the upper tail is P(T > t) = (1 − A)/2. In the far tail 1 − A is
summed without the subtraction for even ν (the terms the series leaves
out) and through the complementary angle π/2 − θ for odd ν. Quantiles
come from bisection on the tail to the last bit. The standard library
only (math), no SciPy; it agrees with mpmath's betainc at 40 digits to a
relative 2e-14. Run with Debian's python3 and commit the output:

    /usr/bin/python3 scripts/tquantiles.py > internal/stats/testdata/t_quantiles.json
"""
import json
import math
import sys

DFS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 19, 20, 29, 30, 39, 49, 99]
PROBS = [0.6, 0.75, 0.9, 0.95, 0.975, 0.99, 0.995, 0.9975, 0.999, 0.9995]


def series(c2: float, first: float, start: int, nu: int) -> float:
    """The bracket of A&S 26.7.3/4: first + Σ terms in c2 = cos²θ.

    Each term is the previous times k/(k + 1)·c2 for k = start, start + 2,
    … while k + 2 ≤ ν: start 1 gives the even case's (1/2, 3/4, …), start
    2 with ν − 1 the odd case's (2/3, 4/5, …).
    """
    total, term, k = first, first, start
    while k + 2 <= nu:
        term *= (k / (k + 1)) * c2
        total += term
        k += 2
    return total


def upper_tail(t: float, nu: int) -> float:
    """P(T > t) for t ≥ 0 and integer ν ≥ 1."""
    if t == 0:
        return 0.5
    theta = math.atan2(t, math.sqrt(nu))  # in (0, π/2)
    s, c = math.sin(theta), math.cos(theta)
    if nu % 2 == 0:
        if s < 0.5:
            return 0.5 * (1.0 - s * series(c * c, 1.0, 1, nu))
        return 0.5 * tail_even(s, c, nu)
    # odd: 1 − A = (2/π)(π/2 − θ − sin θ cos θ S), π/2 − θ = atan2(√ν, t)
    rest = math.atan2(math.sqrt(nu), t)
    extra = s * c * series(c * c, 1.0, 2, nu - 1) if nu > 1 else 0.0
    return (rest - extra) / math.pi


def tail_even(s: float, c: float, nu: int) -> float:
    """1 − sin θ · Σ_{j<ν/2} a_j cos^(2j)θ, with a_j = (2j−1)!!/(2j)!!.

    Since Σ_{j≥0} a_j x^j = (1 − x)^(−1/2) = 1/sin θ, the missing mass is
    sin θ · Σ_{j ≥ ν/2} a_j cos^(2j) θ: summed directly, no cancellation.
    """
    x = c * c
    a, j = 1.0, 0
    while j < nu // 2:
        a *= (2 * j + 1) / (2 * j + 2)
        j += 1
    term = a * x ** j
    total = 0.0
    while term > 1e-300 and (total == 0.0 or term > total * 1e-18):
        total += term
        a *= (2 * j + 1) / (2 * j + 2)
        j += 1
        term = a * x ** j
    return s * total


def quantile(p: float, nu: int) -> float:
    """t with P(T ≤ t) = p, p > 0.5: bisection on the upper tail 1 − p."""
    q = 1.0 - p
    lo, hi = 0.0, 1.0
    while upper_tail(hi, nu) > q:
        hi *= 2
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if upper_tail(mid, nu) > q:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def main() -> None:
    out = {
        "source": "scripts/tquantiles.py (A&S 26.7.3/26.7.4 series, bisection)",
        "quantiles": [
            {"df": nu, "p": p, "t": quantile(p, nu)} for nu in DFS for p in PROBS
        ],
        "tails": [
            {"df": nu, "t": t, "upper": upper_tail(t, nu)}
            for nu in (1, 2, 3, 5, 10, 30)
            for t in (0.1, 0.5, 1.0, 2.0, 3.5, 8.0)
        ],
    }
    # One row a line: the file diffs and reads as a table.
    sys.stdout.write("{\n")
    sys.stdout.write(f' "source": {json.dumps(out["source"])},\n')
    for i, key in enumerate(("quantiles", "tails")):
        rows = ",\n  ".join(json.dumps(r) for r in out[key])
        end = ",\n" if i == 0 else "\n"
        sys.stdout.write(f' "{key}": [\n  {rows}\n ]{end}')
    sys.stdout.write("}\n")


if __name__ == "__main__":
    main()
