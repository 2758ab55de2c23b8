//! Exact rational-arithmetic oracle for point–segment and segment–segment squared distances.
//!
//! Inputs are f64 values converted exactly to rationals; the box-constrained minimum of
//! `F(s, t) = |P(s) − Q(t)|²` is the least of the interior critical point (when it exists and
//! lies in `[0, 1]²`) and the four edge minima, all computed without rounding.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

pub type Q = BigRational;

#[derive(Clone, Debug)]
pub struct V([Q; 3]);

pub fn q(x: f64) -> Q {
    Q::from_float(x).expect("finite input")
}

impl V {
    pub fn from(p: [f64; 3]) -> V {
        V([q(p[0]), q(p[1]), q(p[2])])
    }
    fn sub(&self, o: &V) -> V {
        V(std::array::from_fn(|i| &self.0[i] - &o.0[i]))
    }
    fn add(&self, o: &V) -> V {
        V(std::array::from_fn(|i| &self.0[i] + &o.0[i]))
    }
    fn scale(&self, k: &Q) -> V {
        V(std::array::from_fn(|i| &self.0[i] * k))
    }
    pub fn dot(&self, o: &V) -> Q {
        (0..3).fold(Q::zero(), |acc, i| acc + &self.0[i] * &o.0[i])
    }
    pub fn cross(&self, o: &V) -> V {
        let (a, b) = (&self.0, &o.0);
        V([
            &a[1] * &b[2] - &a[2] * &b[1],
            &a[2] * &b[0] - &a[0] * &b[2],
            &a[0] * &b[1] - &a[1] * &b[0],
        ])
    }
    pub fn sub_pub(&self, o: &V) -> V {
        self.sub(o)
    }
    pub fn scale_pub(&self, k: &Q) -> V {
        self.scale(k)
    }
}

/// Exact squared distance between two lines given by (direction, moment) pairs, as stored in
/// f64: the point closest to the origin is `s × m / (s·s)`; the distance is `|w·n| / |n|` with
/// `n = s₁ × s₂` (non-parallel lines only).
pub fn line_line_sq(s1: &V, m1: &V, s2: &V, m2: &V) -> Q {
    let p1 = s1.cross(m1).scale_pub(&(Q::one() / s1.dot(s1)));
    let p2 = s2.cross(m2).scale_pub(&(Q::one() / s2.dot(s2)));
    let n = s1.cross(s2);
    let wn = p2.sub_pub(&p1).dot(&n);
    &wn * &wn / n.dot(&n)
}

fn clamp01(t: Q) -> Q {
    if t < Q::zero() {
        Q::zero()
    } else if t > Q::one() {
        Q::one()
    } else {
        t
    }
}

/// Exact squared distance from `p` to segment `a b`.
pub fn point_segment_sq(p: &V, a: &V, b: &V) -> Q {
    let d = b.sub(a);
    let dd = d.dot(&d);
    let ap = p.sub(a);
    if dd.is_zero() {
        return ap.dot(&ap);
    }
    let t = clamp01(ap.dot(&d) / dd);
    let r = a.add(&d.scale(&t)).sub(p);
    r.dot(&r)
}

/// Exact squared distance between segments `p0 p1` and `q0 q1`.
pub fn segment_segment_sq(p0: &V, p1: &V, q0: &V, q1: &V) -> Q {
    let mut best = point_segment_sq(p0, q0, q1);
    for c in [
        point_segment_sq(p1, q0, q1),
        point_segment_sq(q0, p0, p1),
        point_segment_sq(q1, p0, p1),
    ] {
        if c < best {
            best = c;
        }
    }
    let u = p1.sub(p0);
    let v = q1.sub(q0);
    let w = p0.sub(q0);
    let (a, b, c, d, e) = (u.dot(&u), u.dot(&v), v.dot(&v), u.dot(&w), v.dot(&w));
    let denom = &a * &c - &b * &b;
    if !denom.is_zero() {
        let s = (&b * &e - &c * &d) / &denom;
        let t = (&a * &e - &b * &d) / &denom;
        let zero = Q::zero();
        let one = Q::one();
        if s >= zero && s <= one && t >= zero && t <= one {
            let r = w.add(&u.scale(&s)).sub(&v.scale(&t));
            let f = r.dot(&r);
            if f < best {
                best = f;
            }
        }
    }
    best
}

/// `√x` of an exact non-negative rational, correctly enough for a 1e-15 relative comparison.
pub fn sqrt_to_f64(x: &Q) -> f64 {
    // Scale to keep to_f64 away from under/overflow for tiny or huge values.
    let f = x.to_f64().unwrap_or(f64::NAN);
    if f.is_finite() && f > 0.0 {
        return f.sqrt();
    }
    if x.is_zero() {
        return 0.0;
    }
    let scale = Q::from_integer(BigInt::from(1u64 << 60));
    (x * &scale * &scale).to_f64().unwrap().sqrt() / (1u64 << 60) as f64
}
