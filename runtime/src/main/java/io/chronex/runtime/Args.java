package io.chronex.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line of a bin/ tool, parsed one way for every tool: {@code --name VALUE} options,
 * {@code --name} flags and positional operands. A mistake is a {@link UsageException}; {@link Tool#run}
 * turns it into "tool: reason" and "Try 'bin/tool --help'." on standard error and exit code 2.
 */
public final class Args {
    private final Map<String, String> values = new HashMap<>();
    private final Set<String> flags = new LinkedHashSet<>();
    private final List<String> operands = new ArrayList<>();

    /** A wrong command line: the message says what is wrong, in the tool's words. */
    public static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public UsageException(final String message) {
            super(message);
        }
    }

    /** --help or -h was given: the tool prints its usage and exits 0. */
    public static final class HelpRequested extends RuntimeException {
        private static final long serialVersionUID = 1L;

        HelpRequested() {
            super("help", null, false, false);
        }
    }

    private Args() {
    }

    /**
     * Parses {@code argv}: {@code valueOptions} each take the next argument, {@code flagOptions} take none;
     * anything else starting with '-' but a negative number is an unknown option, the rest are operands (at most
     * {@code maxOperands}).
     *
     * @throws HelpRequested for --help or -h
     * @throws UsageException for an unknown option, a missing value, an option given twice or too many operands
     */
    public static Args parse(final String[] argv, final Set<String> valueOptions, final Set<String> flagOptions,
                             final int maxOperands) {
        final Args args = new Args();
        for (int i = 0; i < argv.length; i++) {
            final String arg = argv[i];
            if ("--help".equals(arg) || "-h".equals(arg)) {
                throw new HelpRequested();
            } else if (valueOptions.contains(arg)) {
                if (i + 1 >= argv.length) {
                    throw new UsageException(arg + " needs a value");
                }
                if (args.values.put(arg, argv[++i]) != null) {
                    throw new UsageException(arg + " is given twice");
                }
            } else if (flagOptions.contains(arg)) {
                args.flags.add(arg);
            } else if (arg.startsWith("-") && arg.length() > 1 && !Character.isDigit(arg.charAt(1))) {
                // "-12.50" is a negative amount, an operand; anything else starting with '-' is an option.
                throw new UsageException("unknown option " + arg);
            } else {
                if (args.operands.size() >= maxOperands) {
                    throw new UsageException(maxOperands == 0 ? "unexpected argument " + arg : "too many arguments: " + arg);
                }
                args.operands.add(arg);
            }
        }
        return args;
    }

    /** Options only, no operands. */
    public static Args parse(final String[] argv, final String... valueOptions) {
        return parse(argv, Set.of(valueOptions), Set.of(), 0);
    }



    public boolean flag(final String option) {
        return flags.contains(option);
    }

    public List<String> operands() {
        return operands;
    }

    public String string(final String option, final String fallback) {
        return values.getOrDefault(option, fallback);
    }

    /** @throws UsageException naming the option and, when given, an example */
    public String required(final String option, final String example) {
        final String value = values.get(option);
        if (value == null) {
            throw new UsageException(option + " is required" + (example == null ? "" : " (for example " + example + ")"));
        }
        return value;
    }

    public Path path(final String option, final Path fallback) {
        final String value = values.get(option);
        return value == null ? fallback : Path.of(value);
    }

    /** A file that must exist and be readable. */
    public Path readableFile(final String option, final String example) {
        final Path file = Path.of(required(option, example));
        if (!Files.isReadable(file)) {
            throw new UsageException("cannot read " + file + " (" + option + ")");
        }
        return file;
    }

    /** A whole number in [min, max]; {@code fallback} (unchecked) when the option is not given. */
    public long number(final String option, final long fallback, final long min, final long max) {
        final String value = values.get(option);
        return value == null ? fallback : toNumber(option, value, min, max);
    }

    /** A time such as "500ms", "1s" or "2.5s" as nanoseconds, in [minNanos, maxNanos]; {@code fallback} when not given. */
    public long duration(final String option, final String fallback, final long minNanos, final long maxNanos) {
        return durationNanos(option, values.getOrDefault(option, fallback), minNanos, maxNanos);
    }

    /** {@link #duration} of a text given some other way. */
    public static long durationNanos(final String option, final String text, final long minNanos, final long maxNanos) {
        final double seconds;
        try {
            if (text.endsWith("ms")) {
                seconds = Double.parseDouble(text.substring(0, text.length() - 2)) / 1e3;
            } else if (text.endsWith("s")) {
                seconds = Double.parseDouble(text.substring(0, text.length() - 1));
            } else {
                throw new NumberFormatException(text);
            }
        } catch (final NumberFormatException e) {
            throw new UsageException(option + " needs a time such as 500ms or 1s, not '" + text + "'");
        }
        if (!(seconds * 1e9 >= minNanos && seconds * 1e9 <= maxNanos)) {
            throw new UsageException(option + " must be from " + time(minNanos) + " to " + time(maxNanos) + ", not " + text);
        }
        return (long) (seconds * 1e9);
    }

    private static String time(final long nanos) {
        return nanos < 1_000_000_000L ? nanos / 1_000_000L + "ms" : nanos / 1_000_000_000L + "s";
    }

    public int intNumber(final String option, final int fallback, final int min, final int max) {
        return (int) number(option, fallback, min, max);
    }

    /** The operand at {@code index}; a usage error "missing NAME" when there are fewer. */
    public String operand(final int index, final String name) {
        if (index >= operands.size()) {
            throw new UsageException("missing " + name);
        }
        return operands.get(index);
    }

    /** The operand at {@code index}, or {@code fallback} when there are fewer. */
    public String operandOr(final int index, final String fallback) {
        return index < operands.size() ? operands.get(index) : fallback;
    }

    /** The operand at {@code index} as a whole number in [min, max]; required. */
    public long operandNumber(final int index, final String name, final long min, final long max) {
        return toNumber(name, operand(index, name), min, max);
    }

    /**
     * The operand at {@code index} as a file that must exist and be readable; {@code fallback} when
     * there are fewer operands, or a usage error naming it when {@code fallback} is null.
     */
    public Path readableOperand(final int index, final String name, final Path fallback) {
        final Path file = index < operands.size() || fallback == null ? Path.of(operand(index, name)) : fallback;
        if (!Files.isReadable(file)) {
            throw new UsageException("cannot read " + file);
        }
        return file;
    }

    /** One of the given words. */
    public String choice(final String option, final String fallback, final String... allowed) {
        final String value = values.getOrDefault(option, fallback);
        if (!Arrays.asList(allowed).contains(value)) {
            throw new UsageException(option + " must be " + oneOf(allowed) + ", not '" + value + "'");
        }
        return value;
    }


    /** {@code value} of {@code what} (an option or an operand's name) as a whole number in [min, max]; '_' may group digits. */
    private static long toNumber(final String what, final String value, final long min, final long max) {
        final long parsed;
        try {
            parsed = Long.parseLong(value.replace("_", ""));
        } catch (final NumberFormatException e) {
            throw new UsageException(what + " needs a whole number, not '" + value + "'");
        }
        if (parsed < min || parsed > max) {
            throw new UsageException(what + " must be " + range(min, max) + ", not " + value);
        }
        return parsed;
    }

    /** "a, b or c". */
    private static String oneOf(final String... words) {
        final int last = words.length - 1;
        return last <= 0 ? String.join("", words) : String.join(", ", Arrays.copyOf(words, last)) + " or " + words[last];
    }

    private static String range(final long min, final long max) {
        // An open range names its lower bound only: "at least 1" reads better than a bound nobody reaches.
        return max == Long.MAX_VALUE || max == Integer.MAX_VALUE ? "at least " + min : "from " + min + " to " + max;
    }
}
