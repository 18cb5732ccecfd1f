//! Math types: vectors, quaternions, matrices, colors and transforms.

use super::*;

impl<'j> Loader<'_, 'j> {
    /// Loads one float through the float serializer; `None` when processing was not completed.
    pub(super) fn float_at(&mut self, json: &'j Json) -> Result<f32, Code> {
        let mut v = Value::F32(0.0);
        let r = self.load_float(true, json, &mut v);
        if r.processing() != Processing::Completed {
            return Err(r);
        }
        Ok(match v {
            Value::F32(f) => f,
            _ => 0.0,
        })
    }

    pub(super) fn load_vector(&mut self, n: usize, json: &'j Json, out: &mut Value) -> Code {
        const NAMES: [&str; 16] = [
            "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15",
        ];
        match json {
            Json::Array(a) => {
                if a.len() < n {
                    return self.report(
                        T::ReadField,
                        O::Unsupported,
                        "Not enough numbers in array to load math vector from.",
                    );
                }
                let mut vals = vec![0.0f32; n];
                for i in 0..n {
                    let r = self.at(Seg::Key(NAMES[i]), |this| this.float_at(&a[i]));
                    match r {
                        Ok(f) => vals[i] = f,
                        Err(code) => return code,
                    }
                }
                *out = Value::Math(vals.into());
                ResultCode::new(T::ReadField, O::Success)
            }
            Json::Object(m) => {
                const AXES: [[&str; 2]; 4] = [["X", "x"], ["Y", "y"], ["Z", "z"], ["W", "w"]];
                let mut vals = match out {
                    Value::Math(m) if m.len() == n => m.to_vec(),
                    _ => vec![0.0; n],
                };
                let mut result = ResultCode::empty(T::ReadField);
                for i in 0..n {
                    let found = AXES[i].iter().find_map(|k| m.get_key_value(*k));
                    match found {
                        None => {
                            result.combine(ResultCode::new(T::ReadField, O::DefaultsUsed));
                        }
                        Some((k, v)) => {
                            let r = self.at(Seg::Key(k.as_str()), |this| this.float_at(v));
                            match r {
                                Ok(f) => vals[i] = f,
                                Err(code) => return code,
                            }
                            result.combine(ResultCode::new(T::ReadField, O::Success));
                        }
                    }
                }
                *out = Value::Math(vals.into());
                result
            }
            _ => self.report(
                T::ReadField,
                O::Unsupported,
                "Unsupported type. Math vectors can only be read from arrays or objects.",
            ),
        }
    }

    pub(super) fn load_quaternion(&mut self, json: &'j Json, out: &mut Value) -> Code {
        if let Json::Object(m) = json {
            const NAMES: [&str; 3] = ["yaw", "pitch", "roll"];
            // O3DE assigns the members by position, not by name.
            let mut vals = [0.0f32; 3];
            for (i, (_, v)) in m.iter().take(3).enumerate() {
                let r = self.at(Seg::Key(NAMES[i]), |this| this.float_at(v));
                match r {
                    Ok(f) => vals[i] = f,
                    Err(code) => return code,
                }
            }
            *out = Value::Math(crate::math::quat_from_euler_degrees(vals).to_vec().into());
            return ResultCode::new(T::ReadField, O::Success);
        }
        self.load_vector(4, json, out)
    }

    pub(super) fn load_matrix(
        &mut self,
        rows: usize,
        cols: usize,
        json: &'j Json,
        out: &mut Value,
    ) -> Code {
        let n = rows * cols;
        match json {
            Json::Array(a) => {
                if a.len() < n {
                    return self.report(
                        T::ReadField,
                        O::Unsupported,
                        "Not enough numbers in JSON array to load math matrix from.",
                    );
                }
                let mut vals = vec![0.0f32; n];
                for (i, slot) in vals.iter_mut().enumerate() {
                    let r = self.at(Seg::Owned(i.to_string()), |this| this.float_at(&a[i]));
                    match r {
                        Ok(f) => *slot = f,
                        Err(code) => return code,
                    }
                }
                *out = Value::Math(vals.into());
                ResultCode::new(T::ReadField, O::Success)
            }
            Json::Object(m) => {
                // O3DE's LoadObject sets the identity before reading anything.
                *out = Value::Math(identity(rows, cols));
                let mut result = ResultCode::empty(T::ReadField);
                let mut get =
                    |this: &mut Self, names: [&'static str; 2], init: f32| -> Result<f32, Code> {
                        match names.iter().find_map(|k| m.get_key_value(*k)) {
                            None => {
                                result.combine(ResultCode::new(T::ReadField, O::DefaultsUsed));
                                Ok(init)
                            }
                            Some((k, v)) => {
                                let r = this.at(Seg::Key(k.as_str()), |this| this.float_at(v));
                                result.combine(ResultCode::new(T::ReadField, O::Success));
                                r
                            }
                        }
                    };
                let scale = match get(self, ["scale", "Scale"], 1.0) {
                    Ok(s) => s,
                    Err(c) => return c,
                };
                if scale.abs() <= f32::EPSILON {
                    return self.report(T::ReadField, O::Unsupported, "Scale can not be zero.");
                }
                let mut euler = [0.0f32; 3];
                for (slot, names) in
                    euler
                        .iter_mut()
                        .zip([["roll", "Roll"], ["pitch", "Pitch"], ["yaw", "Yaw"]])
                {
                    match get(self, names, 0.0) {
                        Ok(v) => *slot = v,
                        Err(c) => return c,
                    }
                }
                let mut t = [0.0f32; 3];
                if rows * cols != 9 {
                    for (slot, names) in t.iter_mut().zip([["x", "X"], ["y", "Y"], ["z", "Z"]]) {
                        match get(self, names, 0.0) {
                            Ok(v) => *slot = v,
                            Err(c) => return c,
                        }
                    }
                }
                let r = crate::math::quat_to_matrix(crate::math::quat_from_euler_degrees(euler));
                let mut m = identity(rows, cols).to_vec();
                for i in 0..3 {
                    for j in 0..3 {
                        m[i * cols + j] = r[i][j] * scale;
                    }
                    if cols == 4 {
                        m[i * cols + 3] = t[i];
                    }
                }
                if *m == *identity(rows, cols) {
                    *out = Value::Math(identity(rows, cols));
                    return ResultCode::new(T::ReadField, O::DefaultsUsed);
                }
                *out = Value::Math(m.into());
                result
            }
            _ => self.report(
                T::ReadField,
                O::Unsupported,
                "Unsupported type. Math matrix can only be read from arrays or objects.",
            ),
        }
    }

    pub(super) fn load_color(&mut self, json: &'j Json, out: &mut Value) -> Code {
        let mut cur = floats_of(out, [0.0; 4]);
        let r = match json {
            Json::Array(a) => self.color_floats(&mut cur, a, None),
            Json::Object(m) => {
                let mut result = ResultCode::new(T::ReadField, O::Unsupported);
                for (k, v) in m.iter().rev() {
                    let key = k.as_str();
                    let known = ["RGBA8", "RGB8", "RGBA", "RGB", "HEXA", "HEX"]
                        .into_iter()
                        .find(|n| key.eq_ignore_ascii_case(n));
                    let Some(name) = known else { continue };
                    result = self.at(Seg::Key(name), |this| match (name, v) {
                        ("RGBA8", Json::Array(a)) => this.color_bytes(&mut cur, a, true),
                        ("RGB8", Json::Array(a)) => this.color_bytes(&mut cur, a, false),
                        ("RGBA", Json::Array(a)) => this.color_floats(&mut cur, a, Some(true)),
                        ("RGB", Json::Array(a)) => this.color_floats(&mut cur, a, Some(false)),
                        ("HEXA", Json::String(s)) => this.color_hex(&mut cur, s, true),
                        ("HEX", Json::String(s)) => this.color_hex(&mut cur, s, false),
                        _ => result,
                    });
                    break;
                }
                let msg = if result.halted() {
                    "Problem encountered while reading color."
                } else {
                    "Successfully read color."
                };
                self.code(result, msg)
            }
            _ => {
                return self.report(
                    T::ReadField,
                    O::Unsupported,
                    "Unsupported type. Colors can only be read from arrays or objects.",
                )
            }
        };
        if r.processing() == Processing::Completed {
            *out = Value::Math(cur.to_vec().into());
        }
        r
    }

    /// `alpha`: None = if available, Some(true) = required, Some(false) = never.
    pub(super) fn color_floats(
        &mut self,
        cur: &mut [f32; 4],
        a: &[Json],
        alpha: Option<bool>,
    ) -> Code {
        let min = if alpha == Some(true) { 4 } else { 3 };
        if a.len() < min {
            return self.report(
                T::ReadField,
                O::Unsupported,
                "Not enough numbers in array to load color from.",
            );
        }
        let mut ch = [0.0f32; 4];
        const WHAT: [&str; 4] = [
            "Red channel couldn't be read because the value wasn't a decimal number.",
            "Green channel couldn't be read because the value wasn't a decimal number.",
            "Blue channel couldn't be read because the value wasn't a decimal number.",
            "Alpha channel couldn't be read because the value wasn't a decimal number.",
        ];
        let with_alpha = alpha == Some(true) || (alpha.is_none() && a.len() >= 4);
        for i in 0..if with_alpha { 4 } else { 3 } {
            match is_double(&a[i]) {
                Some(d) => ch[i] = d as f32,
                None => return self.report(T::ReadField, O::Unsupported, WHAT[i]),
            }
        }
        if !with_alpha {
            ch[3] = cur[3];
        }
        *cur = ch;
        let outcome = if alpha.is_none() && !with_alpha {
            O::PartialDefaults
        } else {
            O::Success
        };
        ResultCode::new(T::ReadField, outcome)
    }

    pub(super) fn color_bytes(&mut self, cur: &mut [f32; 4], a: &[Json], alpha: bool) -> Code {
        let n = if alpha { 4 } else { 3 };
        if a.len() < n {
            return self.report(
                T::ReadField,
                O::Unsupported,
                "Not enough numbers in array to load color from.",
            );
        }
        const WHAT: [&str; 4] = [
            "Red channel couldn't be read because the value wasn't a byte number.",
            "Green channel couldn't be read because the value wasn't a byte number.",
            "Blue channel couldn't be read because the value wasn't a byte number.",
            "Alpha channel couldn't be read because the value wasn't a byte number.",
        ];
        let mut ch = *cur;
        for i in 0..n {
            match a[i].as_i64() {
                Some(v) => ch[i] = v.clamp(0, 255) as f32 / 255.0,
                None => return self.report(T::ReadField, O::Unsupported, WHAT[i]),
            }
        }
        *cur = ch;
        ResultCode::new(T::ReadField, O::Success)
    }

    pub(super) fn color_hex(&mut self, cur: &mut [f32; 4], s: &str, alpha: bool) -> Code {
        let n = if alpha { 8 } else { 6 };
        if s.len() < n {
            return self.report(
                T::ReadField,
                O::Unsupported,
                "The hex text for color is too short.",
            );
        }
        let mut v: u32 = 0;
        for &c in &s.as_bytes()[..n] {
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => {
                    return self.report(
                        T::ReadField,
                        O::Unsupported,
                        "Failed to parse hex value. There might be an incorrect character in the string.",
                    )
                }
            };
            v = v << 4 | d as u32;
        }
        let b = |x: u32| (x & 0xff) as f32 / 255.0;
        if alpha {
            *cur = [b(v >> 24), b(v >> 16), b(v >> 8), b(v)];
        } else {
            cur[0] = b(v >> 16);
            cur[1] = b(v >> 8);
            cur[2] = b(v);
        }
        ResultCode::new(T::ReadField, O::Success)
    }

    pub(super) fn load_transform(&mut self, json: &'j Json, out: &mut Value) -> Code {
        let (mut t, mut r, mut s) = match out {
            Value::Transform {
                translation,
                rotation,
                scale,
            } => (*translation, *rotation, *scale),
            _ => ([0.0; 3], [0.0, 0.0, 0.0, 1.0], 1.0),
        };
        let mut result = ResultCode::empty(T::ReadField);
        let m = match json {
            Json::Object(m) => m,
            _ => {
                for _ in 0..3 {
                    let c = self.report(T::ReadField, O::Unsupported, "Value is not an object");
                    result.combine(c);
                }
                return self.code(result, "Failed to load Transform information.");
            }
        };
        // Each member loads onto its part of the current transform, or keeps it.
        let mut parts = [
            ("Translation", TypeExpr::Vector3, Value::Math(t.into())),
            ("Rotation", TypeExpr::Quaternion, Value::Math(r.into())),
            ("Scale", TypeExpr::F32, Value::F32(s)),
        ];
        for (name, ty, part) in &mut parts {
            let c = match m.get_key_value(*name) {
                Some((k, v)) => self.with_key(k, |this| this.load_ro(ty, v, part, false)),
                None => ResultCode::new(T::ReadField, O::DefaultsUsed),
            };
            result.combine(c);
        }
        let [(_, _, tv), (_, _, rv), (_, _, sv)] = parts;
        t = floats_of(&tv, t);
        r = floats_of(&rv, r);
        if let Value::F32(x) = sv {
            s = x;
        }
        *out = Value::Transform {
            translation: t,
            rotation: r,
            scale: s,
        };
        let msg = if result.halted() {
            "Failed to load Transform information."
        } else {
            "Succesfully loaded Transform information."
        };
        self.code(result, msg)
    }
}
