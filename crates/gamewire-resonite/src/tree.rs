//! The data tree: root fields, the Types table and the slot hierarchy.
