package io.chronex.queues;

/** What a decoder made of one excerpt; anything but OK means the excerpt was not used. */
public enum DecodeStatus {
    OK,
    /** The first byte is not the message type this decoder reads. */
    UNKNOWN_MESSAGE_TYPE,
    /** A schema version this build cannot read. */
    UNSUPPORTED_VERSION,
    /** Fewer bytes than the message's layout needs. */
    TRUNCATED,
    /** A field holds a value no writer produces (an enum ordinal out of range, a negative count). */
    BAD_VALUE
}
