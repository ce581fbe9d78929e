package io.chronex.queues;

/** What an events excerpt says besides the result: which command it answers, and the hops. */
public final class EventHeader {
    /** The commands-journal index of the command this result answers. */
    public long commandIndex;
    public final Hops hops = new Hops();
    /**
     * Whether the excerpt is a checkpoint: it also carries {@link #stateHash}, the engine's state hash after the
     * command (every {@code --checkpoint-every} commands), which a re-execution must reach too.
     */
    public boolean checkpoint;
    /** The engine's state hash after the command, when {@link #checkpoint}; else 0. */
    public long stateHash;
}
