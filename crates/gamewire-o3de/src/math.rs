//! The little quaternion and matrix math the serializers need.

/// `Quaternion::SetFromEulerRadians`: rotation X * rotation Y * rotation Z, as (x, y, z, w).
pub fn quat_from_euler_degrees(deg: [f32; 3]) -> [f32; 4] {
    let r = |d: f32| d * (std::f32::consts::PI / 180.0) * 0.5;
    let (sx, cx) = r(deg[0]).sin_cos();
    let (sy, cy) = r(deg[1]).sin_cos();
    let (sz, cz) = r(deg[2]).sin_cos();
    let w = cx * cy * cz - sx * sy * sz;
    let x = cx * sy * sz + sx * cy * cz;
    let y = cx * sy * cz - sx * cy * sz;
    let z = cx * cy * sz + sx * sy * cz;
    [x, y, z, w]
}

/// The 3x3 rotation matrix (row-major) of a unit quaternion (x, y, z, w).
pub fn quat_to_matrix(q: [f32; 4]) -> [[f32; 3]; 3] {
    let [x, y, z, w] = q;
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, xy, xz) = (x * x2, x * y2, x * z2);
    let (yy, yz, zz) = (y * y2, y * z2, z * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    [
        [1.0 - (yy + zz), xy - wz, xz + wy],
        [xy + wz, 1.0 - (xx + zz), yz - wx],
        [xz - wy, yz + wx, 1.0 - (xx + yy)],
    ]
}

/// Euler angles in degrees (x, y, z) of a row-major rotation matrix, in the
/// X * Y * Z convention that [`quat_from_euler_degrees`] uses (matrices are stored as
/// arrays now, so only the tests use it).
#[cfg(test)]
pub fn matrix_to_euler_degrees(m: [[f32; 3]; 3]) -> [f32; 3] {
    let sy = m[0][2].clamp(-1.0, 1.0);
    let y = sy.asin();
    let (x, z) = if sy.abs() < 0.999_999 {
        ((-m[1][2]).atan2(m[2][2]), (-m[0][1]).atan2(m[0][0]))
    } else {
        (m[2][1].atan2(m[1][1]), 0.0)
    };
    let d = 180.0 / std::f32::consts::PI;
    [x * d, y * d, z * d]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euler_round_trip() {
        let q = quat_from_euler_degrees([10.0, 20.0, 30.0]);
        let e = matrix_to_euler_degrees(quat_to_matrix(q));
        for (a, b) in e.iter().zip([10.0, 20.0, 30.0]) {
            assert!((a - b).abs() < 1e-3, "{e:?}");
        }
        assert_eq!(quat_from_euler_degrees([0.0; 3]), [0.0, 0.0, 0.0, 1.0]);
    }
}
