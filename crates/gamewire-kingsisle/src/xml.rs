//! XML object files.
