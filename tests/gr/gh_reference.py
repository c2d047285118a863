#!/usr/bin/python3
"""Independent reference values of the first-order generalized harmonic system (Lindblom, Scheel, Kidder, Owen,
Rinne 2006, CQG 23 S447, eqs. 35-37 and the constraints 40-41), written from the paper with NumPy einsum on full
4 x 4 tensors (not from loom's C++). Random symmetric inputs at a few points, the right-hand sides and the
constraints written to gh_reference.json for tests/gr/test_gh_equations.cpp.

Run: /usr/bin/python3 tests/gr/gh_reference.py > tests/gr/data/gh_reference.json
"""
import json
import sys

import numpy as np

SEED = 20261201
POINTS = 5


def sym4(rng, scale):
    m = rng.standard_normal((4, 4)) * scale
    return 0.5 * (m + m.T)


def sym_i4(rng, scale, count=3):
    return np.array([sym4(rng, scale) for _ in range(count)])


def case(rng):
    eta = np.diag([-1.0, 1.0, 1.0, 1.0])
    psi = eta + sym4(rng, 0.15)
    inputs = {
        "psi": psi,
        "pi": sym4(rng, 0.5),
        "phi": sym_i4(rng, 0.5),                      # [i][a][b]
        "dpsi": sym_i4(rng, 0.5),                     # [k][a][b]
        "dpi": sym_i4(rng, 0.5),                      # [k][a][b]
        "dphi": np.array([sym_i4(rng, 0.5) for _ in range(3)]),  # [k][i][a][b]
        "gauge": rng.standard_normal(4) * 0.5,        # H_a
        "dgauge": rng.standard_normal((4, 4)) * 0.5,  # [a][b] = d_a H_b
        "gamma0": float(rng.uniform(0, 3)),
        "gamma1": float(rng.uniform(-1, 0)),
        "gamma2": float(rng.uniform(0, 2)),
    }
    return inputs


def evaluate(v):
    psi, pi, phi = v["psi"], v["pi"], v["phi"]
    dpsi, dpi, dphi = v["dpsi"], v["dpi"], v["dphi"]
    H, dH = v["gauge"], v["dgauge"]
    g0, g1, g2 = v["gamma0"], v["gamma1"], v["gamma2"]
    inv = np.linalg.inv(psi)                       # psi^ab
    N = 1.0 / np.sqrt(-inv[0, 0])                  # lapse: psi^00 = -1/N^2
    shift = -inv[0, 1:] / inv[0, 0]                # psi^0i = N^i / N^2
    t_up = np.concatenate(([1.0 / N], -shift / N))
    t_dn = np.array([-N, 0.0, 0.0, 0.0])
    g_inv = inv[1:, 1:] + np.outer(t_up[1:], t_up[1:])   # g^ij = psi^ij + t^i t^j
    # d_c psi_ab with the time derivative from Pi = -t^c d_c psi (eq. 35 with the constraints satisfied)
    d4 = np.zeros((4, 4, 4))
    d4[1:] = phi
    d4[0] = -N * pi + np.einsum("i,iab->ab", shift, phi)
    gamma = 0.5 * (np.einsum("bac->abc", d4) + np.einsum("cab->abc", d4) - d4)  # Gamma_abc
    # the gauge constraint from its definition C_a = H_a + psi^bc Gamma_abc
    C = H + np.einsum("bc,abc->a", inv, gamma)
    # eq. 35
    dt_psi = (1 + g1) * np.einsum("k,kab->ab", shift, dpsi) - N * pi - g1 * np.einsum("i,iab->ab", shift, phi)
    # eq. 36
    gamma2nd = np.einsum("cd,dab->cab", inv, gamma)  # Gamma^c_ab
    nabla_H = 0.5 * (dH + dH.T) - np.einsum("cab,c->ab", gamma2nd, H)
    pi_ci = pi[:, 1:]  # Pi_ci (c spacetime, i spatial)
    dt_pi = (np.einsum("k,kab->ab", shift, dpi)
             - N * np.einsum("ki,kiab->ab", g_inv, dphi)
             + g1 * g2 * np.einsum("k,kab->ab", shift, dpsi)
             + 2 * N * np.einsum("cd,ij,ica,jdb->ab", inv, g_inv, phi, phi)
             - 2 * N * np.einsum("cd,ca,db->ab", inv, pi, pi)
             - 2 * N * np.einsum("cd,ef,ace,bdf->ab", inv, inv, gamma, gamma)
             - 2 * N * nabla_H
             - 0.5 * N * np.einsum("c,d,cd->", t_up, t_up, pi) * pi
             - N * np.einsum("c,ci,ij,jab->ab", t_up, pi_ci, g_inv, phi)
             + N * g0 * (np.outer(C, t_dn) + np.outer(t_dn, C) - psi * np.dot(t_up, C))
             - g1 * g2 * np.einsum("i,iab->ab", shift, phi))
    # eq. 37
    phi_ijc = phi[:, 1:, :]  # Phi_ijc (j spatial)
    dt_phi = (np.einsum("k,kiab->iab", shift, dphi)
              - N * dpi + N * g2 * dpsi
              + 0.5 * N * np.einsum("c,d,icd->i", t_up, t_up, phi)[:, None, None] * pi[None]
              + N * np.einsum("jk,c,ijc,kab->iab", g_inv, t_up, phi_ijc, phi)
              - N * g2 * phi)
    # eq. 41
    C3 = dpsi - phi
    return {"dt_psi": dt_psi, "dt_pi": dt_pi, "dt_phi": dt_phi, "gauge_constraint": C,
            "three_index_constraint": C3, "lapse": N, "shift": shift}


def main():
    rng = np.random.default_rng(SEED)
    points = []
    for _ in range(POINTS):
        v = case(rng)
        out = evaluate(v)
        points.append({"input": {k: np.asarray(x).tolist() for k, x in v.items()},
                       "output": {k: np.asarray(x).tolist() for k, x in out.items()}})
    doc = {"provenance": {"script": "tests/gr/gh_reference.py", "python": sys.version.split()[0],
                          "numpy": np.__version__, "seed": SEED,
                          "equations": "LSKOR 2006 CQG 23 S447 eqs. 35-37, C_a = H_a + psi^bc Gamma_abc, eq. 41"},
           "points": points}
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
