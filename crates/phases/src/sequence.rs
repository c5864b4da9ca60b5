//! Validated phase sequences — what the reducer runs — and the catalog a content bundle
//! publishes them in.
//!
//! A [`PhaseSequence`] exists only when its definition passed every rule of the validator, so
//! the reducer can rely on it: ids are unique and resolve, conditions are compiled, and each
//! phase's edges are grouped by trigger in firing order. It serializes as its definition,
//! unchanged, so a bundle's canonical form (and revision) is the designer's data.

use std::collections::BTreeMap;

use serde::{Serialize, Serializer};
use turnstile_core::{ContentProblem, Location};
use turnstile_formula::Formula;

use crate::definition::{EdgeDefinition, EdgeTrigger, PhaseDefinition, PhaseSequenceDefinition};
use crate::validate::{validate_sequence, ValidationContext};

/// One edge, compiled: its place in the definition, its resolved target and its condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CompiledEdge {
    /// Index of the edge in its phase's `edges`.
    pub(crate) edge: u16,
    /// Index of the target phase.
    pub(crate) target: u16,
    /// The compiled condition, if any.
    pub(crate) condition: Option<Formula>,
}

/// One phase's edges, by trigger, each list in firing order: priority from highest, then the
/// order the file lists them (the order only decides what is evaluated first, never who wins).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CompiledPhase {
    pub(crate) automatic: Vec<CompiledEdge>,
    pub(crate) command: Vec<CompiledEdge>,
    pub(crate) activation_exit: Vec<CompiledEdge>,
}

impl CompiledPhase {
    pub(crate) fn edges(&self, trigger: EdgeTrigger) -> &[CompiledEdge] {
        match trigger {
            EdgeTrigger::Automatic => &self.automatic,
            EdgeTrigger::Command => &self.command,
            EdgeTrigger::ActivationExit => &self.activation_exit,
        }
    }
}

/// A phase sequence that passed validation: its definition, with conditions compiled and ids
/// resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseSequence {
    pub(crate) definition: PhaseSequenceDefinition,
    pub(crate) entry: u16,
    pub(crate) by_id: BTreeMap<String, u16>,
    pub(crate) phases: Vec<CompiledPhase>,
}

impl PhaseSequence {
    /// The definition it was built from, unchanged.
    pub fn definition(&self) -> &PhaseSequenceDefinition {
        &self.definition
    }

    /// Its id.
    pub fn sequence_id(&self) -> &str {
        &self.definition.sequence_id
    }

    /// The limit on `Automatic` transitions per reducer operation.
    pub fn max_automatic_transitions(&self) -> u32 {
        // Validation guarantees 1..=1024.
        u32::try_from(self.definition.max_automatic_transitions).unwrap_or(1)
    }

    /// The phase every activation enters first.
    pub fn entry_phase(&self) -> &PhaseDefinition {
        self.phase_at(self.entry)
    }

    /// The phase with this id.
    pub fn phase(&self, phase_id: &str) -> Option<&PhaseDefinition> {
        self.index_of(phase_id).map(|i| self.phase_at(i))
    }

    /// Every phase, in file order.
    pub fn phases(&self) -> &[PhaseDefinition] {
        &self.definition.phases
    }

    pub(crate) fn index_of(&self, phase_id: &str) -> Option<u16> {
        self.by_id.get(phase_id).copied()
    }

    pub(crate) fn phase_at(&self, index: u16) -> &PhaseDefinition {
        &self.definition.phases[usize::from(index)]
    }

    pub(crate) fn compiled(&self, index: u16) -> &CompiledPhase {
        &self.phases[usize::from(index)]
    }

    pub(crate) fn edge_at(&self, phase: u16, edge: &CompiledEdge) -> &EdgeDefinition {
        &self.phase_at(phase).edges[usize::from(edge.edge)]
    }
}

impl Serialize for PhaseSequence {
    /// As its definition.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.definition.serialize(serializer)
    }
}

/// The phase sequences of one content bundle, by sequence id.
///
/// serde can deserialize a [`PhaseSequenceDefinition`] but not a `PhaseSequence`: compiling
/// conditions needs the game's [`turnstile_formula::VariableSchema`], which serde cannot pass.
/// A game whose content must deserialize (replays embed it) keeps the definitions in its
/// serialized form and rebuilds the catalog with [`PhaseCatalog::from_definitions`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PhaseCatalog {
    sequences: BTreeMap<String, PhaseSequence>,
}

impl PhaseCatalog {
    /// An empty catalog.
    pub fn new() -> PhaseCatalog {
        PhaseCatalog::default()
    }

    /// Reads and validates sequence files, given as `(file, text)`; every problem of every
    /// file is reported, including a sequence id that two files share.
    pub fn load<'f>(
        files: impl IntoIterator<Item = (&'f str, &'f str)>,
        context: &ValidationContext<'_>,
    ) -> Result<PhaseCatalog, Vec<ContentProblem>> {
        let mut catalog = PhaseCatalog::new();
        let mut problems = Vec::new();
        for (file, text) in files {
            match crate::validate::load_sequence(file, text, context) {
                Ok(sequence) => {
                    if let Err(problem) = catalog.insert(file, sequence) {
                        problems.push(problem);
                    }
                }
                Err(mut found) => problems.append(&mut found),
            }
        }
        if problems.is_empty() {
            Ok(catalog)
        } else {
            Err(problems)
        }
    }

    /// Validates definitions that were already parsed (as `(file, definition)`), as
    /// [`PhaseCatalog::load`] does.
    pub fn from_definitions<'f>(
        definitions: impl IntoIterator<Item = (&'f str, PhaseSequenceDefinition)>,
        context: &ValidationContext<'_>,
    ) -> Result<PhaseCatalog, Vec<ContentProblem>> {
        let mut catalog = PhaseCatalog::new();
        let mut problems = Vec::new();
        for (file, definition) in definitions {
            match validate_sequence(file, definition, context) {
                Ok(sequence) => {
                    if let Err(problem) = catalog.insert(file, sequence) {
                        problems.push(problem);
                    }
                }
                Err(mut found) => problems.append(&mut found),
            }
        }
        if problems.is_empty() {
            Ok(catalog)
        } else {
            Err(problems)
        }
    }

    /// Adds a validated sequence read from `file`; refuses (`duplicate_sequence_id`) one whose
    /// id the catalog already holds.
    pub fn insert(&mut self, file: &str, sequence: PhaseSequence) -> Result<(), ContentProblem> {
        let id = sequence.sequence_id().to_owned();
        if self.sequences.contains_key(&id) {
            return Err(ContentProblem::new(
                file,
                Location::Pointer {
                    pointer: "/sequenceId".into(),
                },
                "duplicate_sequence_id",
                format!("sequence `{id}`: another file of the bundle already defines this id"),
            ));
        }
        self.sequences.insert(id, sequence);
        Ok(())
    }

    /// The sequence with this id.
    pub fn get(&self, sequence_id: &str) -> Option<&PhaseSequence> {
        self.sequences.get(sequence_id)
    }

    /// Every sequence, by id.
    pub fn sequences(&self) -> impl ExactSizeIterator<Item = &PhaseSequence> + '_ {
        self.sequences.values()
    }
}

impl Serialize for PhaseCatalog {
    /// As a list of definitions, in sequence-id order.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.sequences.values())
    }
}
