package io.chronex.queues;

/** What an events excerpt says besides the result: which command it answers, and the hops. */
public final class EventHeader {
    /** The commands-journal index of the command this result answers. */
    public long commandIndex;
    public final Hops hops = new Hops();
}
