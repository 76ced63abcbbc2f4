/// The container stages a front asks, in order, whether an input is a container
/// (`ContainerStage`): the one registry of archive formats and other containers, as
/// `BufferPipeline.standardTransforms` is of transforms. A front is made with the standard
/// list; a test makes one with a stage of its own in front of it.
struct ContainerStages {
    let stages: [any ContainerStage]

    /// Every front's stages, in the order they are asked (a new container format is one
    /// entry here and one file in `ScanPipeline/Containers/`). Made per front: a stage may
    /// keep state for its worker.
    static var standard: ContainerStages { ContainerStages([ArchiveStage()]) }

    init(_ stages: [any ContainerStage]) {
        self.stages = stages
    }

    /// A stage's claim on an input.
    struct Claim {
        let stage: any ContainerStage
        let opening: ContainerOpening
    }

    /// The first stage that claims the input (see `ContainerStage.claim`), nil when none does.
    func claim(head: UnsafeRawBufferPointer, tail: UnsafeRawBufferPointer?, totalSize: Int) -> Claim? {
        for stage in stages {
            if let opening = stage.claim(head: head, tail: tail, totalSize: totalSize) { return Claim(stage: stage, opening: opening) }
        }
        return nil
    }

    /// The first appended container's start in `window` from `from` on, and the stage it is
    /// for; or, when no stage found one, where the next search must resume (the earliest any
    /// stage asks for).
    func appendedStart(in window: UnsafeRawBufferPointer, from: Int) -> (stage: (any ContainerStage)?, search: AppendedSearch) {
        var resume = window.count
        for stage in stages {
            switch stage.appendedStart(in: window, from: from) {
            case .found(let start): return (stage, .found(start))
            case .notFound(let resumeFrom): resume = min(resume, resumeFrom)
            }
        }
        return (nil, .notFound(resumeFrom: resume))
    }
}
