"""Textbook RSA and the number theory under it with sympy.ntheory: primes (nextprime, isprime), Euler's totient and
Carmichael's function, modular inverse, CRT decryption (sympy.ntheory.modular.crt), the factorisation of p - 1
(factorint), a primitive root and a discrete logarithm modulo p, and the continued-fraction convergents of e/n
that Wiener's attack inspects (sympy.ntheory.continued_fraction)."""

import sympy as sp
from sympy.ntheory import discrete_log, factorint, primitive_root
from sympy.ntheory.continued_fraction import continued_fraction_convergents, continued_fraction_periodic
from sympy.ntheory.modular import crt


def main(scn):
    p = int(sp.nextprime(int(scn["p_start"])))
    q = int(sp.nextprime(int(scn["q_start"])))
    if q == p:
        q = int(sp.nextprime(q))
    n = p * q
    phi, lam = int(sp.totient(n)), int(sp.reduced_totient(n))
    k = int(scn["exponent_start"]) | 1                # odd
    while sp.gcd(k, phi) != 1:
        k += 2
    if scn["key_mode"] == "small_e":
        e, d = k, int(sp.mod_inverse(k, phi))
    else:                                  # a small private exponent, the case Wiener's attack breaks
        d, e = k, int(sp.mod_inverse(k, phi))
    m = int(scn["message"]) % n
    c = pow(m, e, n)
    mp, mq = pow(c, d % (p - 1), p), pow(c, d % (q - 1), q)
    m_crt = int(crt([p, q], [mp, mq])[0])
    g = int(primitive_root(p))
    dlog = discrete_log(p, m % p, g) if m % p else None
    cf = continued_fraction_periodic(e, n)
    convergents = [[int(sp.numer(v)), int(sp.denom(v))] for v in continued_fraction_convergents(cf)]
    return {
        "p": p, "q": q, "n": n, "phi": phi, "carmichael": lam, "e": e, "d": d,
        "ciphertext": c, "decrypted": m_crt,
        "p_minus_1_factors": [[int(f), int(v)] for f, v in sorted(factorint(p - 1).items())],
        "primitive_root_p": g,
        "discrete_log": int(dlog) if dlog is not None else -1,
        "cf_terms": [int(t) for t in cf],
        "convergents": convergents[:12],
        "wiener_hit": any(den == d for _, den in convergents),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
