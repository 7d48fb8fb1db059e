"""Probe: what commons-math 2.2's compiled classes compute on fixed inputs, as one JSON object. The library is
Java, so this script writes a small Java program and runs it with the JVM on the project's build output
(target/classes, JDK 11's single-file source launch: no compile step the candidate could touch). Recorded
natively from Debian's built jar of the same upstream version; a port built with JDK 17 must print the same.
It covers the special functions (Gamma, Beta, Erf), distributions (normal, t, chi-square), linear algebra (LU,
eigen, QR least squares), a root solver, an FFT, regression and descriptive statistics: each a separate code
path of the library, so a port that stubs or breaks one of them is seen here."""

import json
import subprocess
import tempfile
from pathlib import Path

JAVA = r"""
import org.apache.commons.math.analysis.UnivariateRealFunction;
import org.apache.commons.math.analysis.solvers.BrentSolver;
import org.apache.commons.math.complex.Complex;
import org.apache.commons.math.distribution.*;
import org.apache.commons.math.linear.*;
import org.apache.commons.math.special.*;
import org.apache.commons.math.stat.descriptive.DescriptiveStatistics;
import org.apache.commons.math.stat.regression.SimpleRegression;
import org.apache.commons.math.transform.FastFourierTransformer;

public class Probe {
    static StringBuilder out = new StringBuilder("{");

    static void put(String key, double... xs) {
        if (out.length() > 1) out.append(",");
        out.append('"').append(key).append("\":[");
        for (int i = 0; i < xs.length; i++) out.append(i > 0 ? "," : "").append(Double.toString(xs[i]));
        out.append("]");
    }

    public static void main(String[] args) throws Exception {
        double[] xs = {0.1, 0.5, 1.0, 2.5, 7.25, 30.0};
        double[] g = new double[xs.length], e = new double[xs.length], b = new double[xs.length];
        for (int i = 0; i < xs.length; i++) {
            g[i] = Gamma.logGamma(xs[i]);
            e[i] = Erf.erf(xs[i] / 4);
            b[i] = Beta.regularizedBeta(0.3, xs[i], 2.0);
        }
        put("logGamma", g); put("erf", e); put("regularizedBeta", b);
        put("digamma", Gamma.digamma(0.5), Gamma.digamma(3.7));
        put("regularizedGammaP", Gamma.regularizedGammaP(2.0, 1.5), Gamma.regularizedGammaQ(4.5, 3.0));

        NormalDistribution n = new NormalDistributionImpl(1.5, 2.0);
        TDistribution t = new TDistributionImpl(7);
        ChiSquaredDistribution c = new ChiSquaredDistributionImpl(4);
        put("normal", n.cumulativeProbability(0.3), n.inverseCumulativeProbability(0.975), n.density(2.0));
        put("t", t.cumulativeProbability(-1.2), t.inverseCumulativeProbability(0.9));
        put("chisq", c.cumulativeProbability(3.3), c.inverseCumulativeProbability(0.05));

        double[][] a = {{4, 1, 2, 0.5}, {1, 5, 0.3, 1}, {2, 0.3, 6, 0.7}, {0.5, 1, 0.7, 3}};
        RealMatrix m = new Array2DRowRealMatrix(a);
        LUDecomposition lu = new LUDecompositionImpl(m);
        double[] rhs = {1, -2, 3, 0.5};
        put("lu.det", lu.getDeterminant());
        put("lu.solve", lu.getSolver().solve(rhs));
        put("lu.inverse.row0", lu.getSolver().getInverse().getRow(0));
        EigenDecomposition eig = new EigenDecompositionImpl(m, MathUtils_SAFE_MIN());
        put("eigenvalues", eig.getRealEigenvalues());
        double[][] d = {{1, 1}, {1, 2}, {1, 3}, {1, 4.5}, {1, 6}};
        double[] y = {1.1, 2.3, 2.9, 4.4, 6.2};
        put("qr.leastsquares", new QRDecompositionImpl(new Array2DRowRealMatrix(d)).getSolver().solve(y));

        UnivariateRealFunction f = new UnivariateRealFunction() {
            public double value(double x) { return Math.cos(x) - x; }
        };
        put("brent", new BrentSolver(1e-14).solve(100, f, 0.0, 1.0));

        double[] sig = new double[16];
        for (int i = 0; i < sig.length; i++) sig[i] = Math.sin(0.7 * i) + 0.25 * (i % 3);
        Complex[] fft = new FastFourierTransformer().transform(sig);
        double[] re = new double[fft.length], im = new double[fft.length];
        for (int i = 0; i < fft.length; i++) { re[i] = fft[i].getReal(); im[i] = fft[i].getImaginary(); }
        put("fft.re", re); put("fft.im", im);

        SimpleRegression r = new SimpleRegression();
        DescriptiveStatistics s = new DescriptiveStatistics();
        for (int i = 0; i < 40; i++) {
            double x = i * 0.37, v = 2.0 * x - 1.0 + Math.sin(i * 1.3);
            r.addData(x, v);
            s.addValue(v);
        }
        put("regression", r.getSlope(), r.getIntercept(), r.getR(), r.getSlopeStdErr(), r.getSignificance());
        put("descriptive", s.getMean(), s.getStandardDeviation(), s.getSkewness(), s.getKurtosis(),
            s.getPercentile(25), s.getPercentile(90), s.getMin(), s.getMax());
        System.out.println(out.append("}"));
    }

    static double MathUtils_SAFE_MIN() { return org.apache.commons.math.util.MathUtils.SAFE_MIN; }
}
"""

with tempfile.TemporaryDirectory() as d:
    src = Path(d) / "Probe.java"
    src.write_text(JAVA)
    res = subprocess.run(
        ["java", "-cp", "target/classes", str(src)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False
    )
if res.returncode != 0:
    raise SystemExit(f"java failed ({res.returncode}): {res.stderr.decode(errors='replace')[-2000:]}")
print(json.dumps(json.loads(res.stdout), sort_keys=True))
