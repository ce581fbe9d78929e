package io.chronex.queues;

import io.chronex.api.ConfigChange;
import io.chronex.api.EngineConfig;
import io.chronex.api.Result;
import io.chronex.runtime.ConfigYaml.ConfigException;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.RandomDataInput;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The configurations a commands journal records and which one was in force where: the first record taken is the one
 * the history was written under from its start (the engine records it at its first start, before it answers
 * anything, so commands a gateway journalled earlier were answered under it too); each change taken after it is in
 * force from its own index on. Which records are taken is {@link #judge}'s rule, the engine's own.
 */
public final class JournalConfig {
    /** One configuration record: where, what kind, when, the configuration it holds (null if unreadable), taken or why not. */
    public record Entry(long index, ConfigRecord.Kind kind, long epochNanos, EngineConfig config, String text, ConfigChange change,
                        String refusal) {
        public boolean accepted() {
            return refusal == null;
        }
    }

    /** The engine's decision on one record: the configuration in force after it, the change it made (null for the first). */
    public record Judgement(EngineConfig config, ConfigChange change, String refusal) {
        public boolean accepted() {
            return refusal == null;
        }
    }

    /**
     * Follows the journal's records one by one as the engine answers them (the engine process, its recovery and the audit's
     * re-execution share it, so all three answer a record alike).
     */
    public static final class Follower {
        private EngineConfig inForce;

        /** Starting where {@code inForce} is the configuration taken last (null: none yet). */
        public Follower(final EngineConfig inForce) {
            this.inForce = inForce;
        }

        /** The configuration taken last, or null. */
        public EngineConfig inForce() {
            return inForce;
        }

        /**
         * Answers the record of {@code length} bytes at {@code at} (journal index {@code index}) into result; returns the change
         * the engine must make to its state, or null when there is none (not taken, or the first record).
         */
        public ConfigChange answer(final RandomDataInput in, final long at, final long length, final long index, final Result result) {
            final Judgement judgement;
            try {
                judgement = judge(inForce, ConfigRecord.read(in, at, length),
                    "the configuration at journal index " + Long.toHexString(index));
            } catch (final IllegalArgumentException e) {
                result.rejectMalformed(); // not a record at all: answered as any excerpt that does not decode
                return null;
            }
            result.answerConfiguration(judgement.accepted());
            if (!judgement.accepted()) {
                return null;
            }
            inForce = judgement.config();
            return judgement.change();
        }
    }

    private final List<Entry> entries;
    /** The last journal index read or known to hold no other record; -1 for an empty journal. */
    private final long through;

    private JournalConfig(final List<Entry> entries, final long through) {
        this.entries = List.copyOf(entries);
        this.through = through;
    }

    /** The journal index through which every record is among {@link #entries} (what the engine's index file says). */
    public long through() {
        return through;
    }

    /** Where the engine keeps its index of a data directory's records. */
    public static Path indexFile(final DataDirectory data) {
        return data.snapshots().resolve(ConfigRecordIndex.FILE);
    }

    /**
     * The record's judgement given the configuration in force before it ({@code inForce}, null before the first): the
     * first must be an initial one, every later one a change the engine can make ({@link ConfigChange}).
     */
    public static Judgement judge(final EngineConfig inForce, final ConfigRecord.Decoded record, final String name) {
        final EngineConfig config;
        try {
            config = EngineConfigFile.parse(name, record.text());
        } catch (final ConfigException e) {
            return new Judgement(null, null, "the recorded configuration does not read: " + e.getMessage());
        }
        if (record.kind() == ConfigRecord.Kind.INITIAL) {
            return inForce == null ? new Judgement(config, null, null)
                : new Judgement(config, null, "an initial configuration after the journal already has one");
        }
        if (inForce == null) {
            return new Judgement(config, null, "a configuration change before any initial configuration");
        }
        final ConfigChange change = ConfigChange.between(inForce, config);
        return change.applicable() ? new Judgement(config, change, null)
            : new Judgement(config, change, "a change the engine cannot make: " + String.join("; ", change.refusals()));
    }

    /** Every configuration record of the journal, judged in order. Reads the whole journal (about 30 ms per million commands, warm). */
    public static JournalConfig read(final ChronicleQueue commands) {
        return read(commands, ArchivedConfigRecords.read(null));
    }

    /** The same, the records of archived journal cycles taken from {@code archived}, those the live journal still has from it. */
    private static JournalConfig read(final ChronicleQueue commands, final ArchivedConfigRecords archived) {
        final Judged judged = new Judged();
        final long firstLive = commands.firstIndex();
        archived.records().forEach((index, bytes) -> {
            if (index < firstLive) {
                judged.offer(index, bytes);
            }
        });
        try (ExcerptTailer tailer = commands.createTailer(); ExcerptWalk walk = new ExcerptWalk(tailer)) {
            while (walk.next()) {
                judged.offer(walk);
            }
            judged.through = Math.max(judged.through, walk.index());
        }
        return new JournalConfig(judged.entries, judged.through);
    }

    /**
     * The same, reading only what {@code indexFile} ({@link ConfigRecordIndex}) does not cover: the records it lists, each
     * checked to be one, and the journal after its {@code through}. A missing or wrong index: the whole journal is read.
     * Records of journal cycles moved to an archive are read from {@link ArchivedConfigRecords}, beside the index file.
     *
     * @throws IllegalStateException when the kept records of archived cycles do not read whole
     */
    public static JournalConfig read(final ChronicleQueue commands, final Path indexFile) {
        final ArchivedConfigRecords archived = ArchivedConfigRecords.read(indexFile == null ? null
            : indexFile.resolveSibling(ArchivedConfigRecords.FILE));
        final ConfigRecordIndex index = ConfigRecordIndex.read(indexFile);
        final JournalConfig quick = index == null ? null : readAfter(commands, index, archived);
        return quick != null ? quick : read(commands, archived);
    }

    /** The records by the index and from its {@code through} on; null when the journal does not bear the index out. */
    private static JournalConfig readAfter(final ChronicleQueue commands, final ConfigRecordIndex index,
                                           final ArchivedConfigRecords archived) {
        final Judged judged = new Judged();
        final long firstLive = commands.firstIndex();
        try (ExcerptTailer tailer = commands.createTailer(); ExcerptWalk walk = new ExcerptWalk(tailer)) {
            long previous = -1;
            for (final long at : index.records()) {
                if (at <= previous) {
                    return null;
                }
                if (at < firstLive) {
                    final byte[] kept = archived.records().get(at);
                    if (kept == null) {
                        return null;
                    }
                    judged.offer(at, kept);
                } else {
                    if (!walk.moveToIndex(at) || !walk.next() || walk.index() != at
                        || !ConfigRecord.is(walk.in(), walk.offset(), walk.length())) {
                        return null;
                    }
                    judged.offer(walk);
                }
                previous = at;
            }
            if (index.through() >= 0 && (!walk.moveToIndex(index.through()) || !walk.next() || walk.index() != index.through())) {
                return null;
            }
            if (index.through() < 0) {
                walk.moveToIndex(commands.firstIndex());
            }
            while (walk.next()) {
                if (walk.index() > previous) {
                    judged.offer(walk);
                } else if (ConfigRecord.is(walk.in(), walk.offset(), walk.length()) && !index.records().contains(walk.index())) {
                    return null; // a record before the last one listed that the index does not list: it is not to be trusted
                }
            }
            judged.through = Math.max(walk.index(), index.through());
        }
        return new JournalConfig(judged.entries, judged.through);
    }

    /** Records judged in journal order as they are offered. */
    private static final class Judged {
        private final List<Entry> entries = new ArrayList<>();
        private EngineConfig inForce;
        private long through = -1;

        /** Judges the walk's current excerpt if it is a record. */
        void offer(final ExcerptWalk walk) {
            offer(walk.index(), walk.in(), walk.offset(), walk.length());
        }

        /** Judges a record kept from an archived cycle, as journalled. */
        void offer(final long index, final byte[] excerpt) {
            final Bytes<byte[]> bytes = Bytes.wrapForRead(excerpt);
            try {
                offer(index, bytes, 0, excerpt.length);
            } finally {
                bytes.releaseLast();
            }
            through = Math.max(through, index);
        }

        private void offer(final long index, final RandomDataInput in, final long offset, final long length) {
            if (!ConfigRecord.is(in, offset, length)) {
                return;
            }
            final ConfigRecord.Decoded record;
            try {
                record = ConfigRecord.read(in, offset, length);
            } catch (final IllegalArgumentException e) {
                entries.add(new Entry(index, null, 0, null, null, null, e.getMessage()));
                return;
            }
            final Judgement judgement = judge(inForce, record, "the configuration recorded at journal index "
                + Long.toHexString(index));
            entries.add(new Entry(index, record.kind(), record.epochNanos(), judgement.config(),
                new String(record.text(), java.nio.charset.StandardCharsets.UTF_8), judgement.change(), judgement.refusal()));
            if (judgement.accepted()) {
                inForce = judgement.config();
            }
        }
    }

    /**
     * The configuration a tool reading {@code data} works under: the one its journal records last, or, when the journal
     * records none (a directory whose engine has not started, or one written before records existed), the file
     * {@code given} (null: none). A {@code given} file that differs from the journal's is refused with the differences:
     * the journal is the source of truth, and a file swapped under it would name the wrong symbols.
     */
    public EngineConfig forTool(final DataDirectory data, final Path given) throws ConfigException {
        if (!recorded()) {
            return given == null ? null : EngineConfigFile.load(given);
        }
        if (given == null) {
            return latest();
        }
        final ConfigChange change = ConfigChange.between(latest(), EngineConfigFile.load(given));
        if (change.isEmpty()) {
            return latest();
        }
        throw new ConfigException(given + " is not the configuration the journal of " + data.root() + " records (index "
            + Long.toHexString(last().index()) + "):\n  " + String.join("\n  ", change.differences())
            + "\nThe journal is the source of truth: bin/audit config --data-dir " + data.root() + " prints its configuration,"
            + " and the read tools use it without --config.");
    }

    /** The records of a data directory's journal; none when it has no journal yet. */
    public static JournalConfig ofDirectory(final DataDirectory data) {
        if (!data.hasQueue("commands")) {
            return new JournalConfig(List.of(), -1);
        }
        try (ChronicleQueue commands = data.commands()) {
            return read(commands, indexFile(data));
        }
    }

    /** Every record, taken or not, in journal order. */
    public List<Entry> entries() {
        return entries;
    }

    /** Does the journal record a configuration at all (journals written before it did, or empty ones, do not)? */
    public boolean recorded() {
        return first() != null;
    }

    /** The record the history starts under, or null when none was taken. */
    public Entry first() {
        for (final Entry entry : entries) {
            if (entry.accepted()) {
                return entry;
            }
        }
        return null;
    }

    /** The last record taken, or null. */
    public Entry last() {
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i).accepted()) {
                return entries.get(i);
            }
        }
        return null;
    }

    /** The record in force after the command at journal index {@code index} (the first one before it is recorded), or null. */
    public Entry at(final long index) {
        Entry found = first();
        for (final Entry entry : entries) {
            if (entry.accepted() && entry.index() <= index) {
                found = entry;
            }
        }
        return found;
    }

    /** The last record taken at or before journal index {@code index}, or null (the engine's view while answering after it). */
    public Entry takenThrough(final long index) {
        Entry found = null;
        for (final Entry entry : entries) {
            if (entry.accepted() && entry.index() <= index) {
                found = entry;
            }
        }
        return found;
    }

    /** The configuration in force at the end of the journal, or null when it records none. */
    public EngineConfig latest() {
        final Entry last = last();
        return last == null ? null : last.config();
    }
}
