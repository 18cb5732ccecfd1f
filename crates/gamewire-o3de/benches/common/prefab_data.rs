// The registry and the document generator shared by the prefab benches.

const REGISTRY: &str = r#"{
  "enums": [{"name": "ShadowMode", "underlying": "u32", "values": {"None": 0, "Cast": 1, "Receive": 2, "Both": 3}}],
  "classes": [
    {"name": "AZ::Component", "abstract": true, "fields": [{"name": "Id", "type": "u64"}]},
    {"name": "EditorTransformComponent", "bases": ["AZ::Component"], "fields": [
      {"name": "Parent Entity", "type": "string"},
      {"name": "Transform Data", "type": "Transform"},
      {"name": "Cached World Transform", "type": "Transform"},
      {"name": "Sync Enabled", "type": "bool", "default": true}]},
    {"name": "EditorMeshComponent", "bases": ["AZ::Component"], "fields": [
      {"name": "Model", "type": "Asset<ModelAsset>"},
      {"name": "Shadows", "type": "ShadowMode", "default": "Both"},
      {"name": "Tint", "type": "Color", "default": [1.0, 1.0, 1.0, 1.0]},
      {"name": "Lod Bias", "type": "f32"}]},
    {"name": "EditorInspectorComponent", "bases": ["AZ::Component"], "fields": [
      {"name": "ComponentOrderEntryArray", "type": "vector<ComponentOrderEntry>"}]},
    {"name": "ComponentOrderEntry", "fields": [
      {"name": "ComponentId", "type": "u64"}, {"name": "SortIndex", "type": "i32"}]},
    {"name": "Entity", "fields": [
      {"name": "Id", "type": "string"},
      {"name": "Name", "type": "string"},
      {"name": "Tags", "type": "unordered_set<string>"},
      {"name": "Components", "type": "map<string, AZ::Component*>"}]},
    {"name": "Prefab", "fields": [
      {"name": "ContainerEntity", "type": "Entity"},
      {"name": "Entities", "type": "map<string, Entity>"}]}
  ]
}"#;

/// A prefab-like document of about `target` bytes.
fn prefab(target: usize) -> String {
    let mut s = String::with_capacity(target + 4096);
    s.push_str("{\n  \"ContainerEntity\": {\"Id\": \"ContainerEntity\", \"Name\": \"Level\", \"Components\": {}},\n  \"Entities\": {\n");
    let mut i: u64 = 0;
    let mut seed: u64 = 0x9E3779B97F4A7C15;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    while s.len() < target {
        if i > 0 {
            s.push_str(",\n");
        }
        let id = 1_000_000_000 + rnd() % 9_000_000_000;
        let (c1, c2, c3) = (
            rnd() % 1_000_000_000_000,
            rnd() % 1_000_000_000_000,
            rnd() % 1_000_000_000_000,
        );
        let f = |x: u64| (x % 100_000) as f64 / 100.0 - 500.0;
        let _ = write!(
            s,
            r#"    "Entity_[{id}]": {{
      "Id": "Entity_[{id}]",
      "Name": "Object {i}",
      "Tags": ["static", "lod{lod}"],
      "Components": {{
        "Component_[{c1}]": {{
          "$type": "EditorTransformComponent",
          "Id": {c1},
          "Parent Entity": "ContainerEntity",
          "Transform Data": {{"Translation": [{x}, {y}, {z}], "Rotation": [0.0, 0.0, 0.7071067690849304, 0.7071067690849304], "Scale": 1.5}}
        }},
        "Component_[{c2}]": {{
          "$type": "EditorMeshComponent",
          "Id": {c2},
          "Model": {{"assetId": {{"guid": "{{3E4B1A08-6F6B-5C2D-9A6B-2C9C7A3E{g:04X}}}", "subId": 268435456}}, "assetHint": "objects/prop_{g}.azmodel"}},
          "Shadows": "Cast",
          "Lod Bias": "0.25"
        }},
        "Component_[{c3}]": {{
          "$type": "EditorInspectorComponent",
          "Id": {c3},
          "ComponentOrderEntryArray": [{{"ComponentId": {c1}}}, {{"ComponentId": {c2}, "SortIndex": 1}}]
        }}
      }}
    }}"#,
            lod = i % 4,
            x = f(rnd()),
            y = f(rnd()),
            z = f(rnd()),
            g = rnd() % 0xFFFF,
        );
        i += 1;
    }
    s.push_str("\n  }\n}\n");
    s
}

