package io.chronex.runtime;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one command-line parser every bin/ tool uses, and how {@link Tool} turns its outcomes into output and exit codes. */
class ArgsTest {
    private static final Set<String> VALUES = Set.of("--data-dir", "--rate", "--mode");
    private static final Set<String> FLAGS = Set.of("--quiet");

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedOut;
    private PrintStream savedErr;

    @BeforeEach
    void captureConsole() {
        savedOut = System.out;
        savedErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreConsole() {
        System.setOut(savedOut);
        System.setErr(savedErr);
    }

    private static Args parse(final String... argv) {
        return Args.parse(argv, VALUES, FLAGS, 2);
    }

    private static String usageError(final org.junit.jupiter.api.function.Executable executable) {
        return assertThrows(Args.UsageException.class, executable).getMessage();
    }

    @Test
    void optionsFlagsAndOperandsInAnyOrder() {
        final Args args = parse("a.csv", "--data-dir", "/tmp/d", "--quiet", "b.csv", "--rate", "5");
        assertEquals("/tmp/d", args.string("--data-dir", "data"));
        assertEquals(Path.of("/tmp/d"), args.path("--data-dir", Path.of("data")));
        assertEquals(5, args.number("--rate", 1, 1, 10));
        assertTrue(args.flag("--quiet"));
        assertFalse(args.flag("--verbose"));
        assertEquals("rate", args.string("--mode", "rate"), "an option not given takes its default");
        assertEquals(List.of("a.csv", "b.csv"), args.operands());
        assertEquals("b.csv", args.operand(1, "FILE"));
    }

    @Test
    void absentOptionsGiveTheirDefaults() {
        final Args args = parse();
        assertEquals("data", args.string("--data-dir", "data"));
        assertEquals(Path.of("data"), args.path("--data-dir", Path.of("data")));
        assertEquals(-1, args.number("--rate", -1, 1, 10), "a default is not range-checked");
        assertEquals(7, args.intNumber("--rate", 7, 1, 10));
        assertEquals("rate", args.choice("--mode", "rate", "rate", "pingpong"));
        assertFalse(args.flag("--quiet"));
        assertEquals("LOAD", args.operandOr(0, "LOAD"));
        assertEquals(List.of(), args.operands());
    }

    @Test
    void helpAnywhereOnTheLineWins() {
        assertThrows(Args.HelpRequested.class, () -> parse("--help"));
        assertThrows(Args.HelpRequested.class, () -> parse("-h"));
        assertThrows(Args.HelpRequested.class, () -> parse("--rate", "5", "--help", "--frobnicate"));
    }

    @Test
    void wrongCommandLinesSayWhatIsWrong() {
        assertEquals("unknown option --frobnicate", usageError(() -> parse("--frobnicate")));
        assertEquals("unknown option -x", usageError(() -> parse("-x")));
        assertEquals("--rate needs a value", usageError(() -> parse("--rate")));
        assertEquals("--rate is given twice", usageError(() -> parse("--rate", "1", "--rate", "2")));
        assertEquals("too many arguments: c", usageError(() -> parse("a", "b", "c")));
        assertEquals("unexpected argument a", usageError(() -> Args.parse(new String[]{"a"}, "--rate")));
        assertEquals(List.of("-"), parse("-").operands(), "a lone '-' is an operand (standard input, by convention)");
    }

    @Test
    void numbersAreWholeAndInRange() {
        assertEquals(1_000_000, parse("--rate", "1_000_000").number("--rate", 0, 1, Long.MAX_VALUE));
        assertEquals(10, parse("--rate", "10").number("--rate", 0, 1, 10), "the upper bound is allowed");
        assertEquals(1, parse("--rate", "1").number("--rate", 0, 1, 10), "the lower bound is allowed");
        assertEquals("--rate must be from 1 to 10, not 11", usageError(() -> parse("--rate", "11").number("--rate", 0, 1, 10)));
        assertEquals("--rate must be at least 1, not 0", usageError(() -> parse("--rate", "0").number("--rate", 5, 1, Long.MAX_VALUE)));
        assertEquals("--rate must be at least 0, not -3",
            usageError(() -> parse("--rate", "-3").intNumber("--rate", 5, 0, Integer.MAX_VALUE)));
        assertEquals("--rate needs a whole number, not 'many'", usageError(() -> parse("--rate", "many").number("--rate", 0, 1, 10)));
        assertEquals("--rate needs a whole number, not '1.5'", usageError(() -> parse("--rate", "1.5").number("--rate", 0, 1, 10)));
        assertEquals("--rate needs a whole number, not '99999999999999999999'",
            usageError(() -> parse("--rate", "99999999999999999999").number("--rate", 0, 1, Long.MAX_VALUE)));
    }

    @Test
    void operandsAreRequiredOrDefaultedAndNumbersChecked() {
        final Args args = parse("8080", "x");
        assertEquals(8080, args.operandNumber(0, "PORT", 1, 65535));
        assertEquals("SESSIONS needs a whole number, not 'x'", usageError(() -> args.operandNumber(1, "SESSIONS", 1, 100)));
        assertEquals("PORT must be from 1 to 1024, not 8080", usageError(() -> args.operandNumber(0, "PORT", 1, 1024)));
        assertEquals("missing FILE", usageError(() -> parse().operand(0, "FILE")));
        assertEquals("missing SESSIONS", usageError(() -> parse("8080").operandNumber(1, "SESSIONS", 1, 100)));
        assertEquals("x", args.operandOr(1, "LOAD"));
    }

    @Test
    void choicesNameTheAllowedWords() {
        assertEquals("pingpong", parse("--mode", "pingpong").choice("--mode", "rate", "rate", "pingpong"));
        assertEquals("--mode must be rate or pingpong, not 'ping'",
            usageError(() -> parse("--mode", "ping").choice("--mode", "rate", "rate", "pingpong")));
        assertEquals("--idle must be backoff, yield or busy, not 'lazy'",
            usageError(() -> Args.parse(new String[]{"--idle", "lazy"}, "--idle").choice("--idle", "backoff", IdleStrategies.CHOICES)));
    }

    @Test
    void requiredOptionsNameAnExample() {
        assertEquals("/tmp/d", parse("--data-dir", "/tmp/d").required("--data-dir", null));
        assertEquals("--data-dir is required", usageError(() -> parse().required("--data-dir", null)));
        assertEquals("--data-dir is required (for example data)", usageError(() -> parse().required("--data-dir", "data")));
    }

    @Test
    void readableFilesMustExist() throws IOException {
        final Path file = Files.writeString(dir.resolve("engine.yaml"), "symbols: []\n");
        final Path absent = dir.resolve("absent.yaml");
        assertEquals(file, parse("--data-dir", file.toString()).readableFile("--data-dir", null));
        assertEquals("cannot read " + absent + " (--data-dir)",
            usageError(() -> parse("--data-dir", absent.toString()).readableFile("--data-dir", null)));
        assertEquals("--data-dir is required (for example config/engine.yaml)",
            usageError(() -> parse().readableFile("--data-dir", "config/engine.yaml")));

        assertEquals(file, parse(file.toString()).readableOperand(0, "FILE", null));
        assertEquals(file, parse().readableOperand(0, "FILE", file), "no operand: the fallback, checked too");
        assertEquals("cannot read " + absent, usageError(() -> parse(absent.toString()).readableOperand(0, "FILE", file)));
        assertEquals("cannot read " + absent, usageError(() -> parse().readableOperand(0, "FILE", absent)));
        assertEquals("missing FILE", usageError(() -> parse().readableOperand(0, "FILE", null)));
    }

    @Test
    void helpPrintsTheUsageOnStandardOutputAndExitsZero() {
        final int code = Tool.exitCode("tool", "Usage: bin/tool [--rate R]\n", () -> {
            parse("--help");
            return 5;
        });
        assertEquals(0, code);
        assertEquals("Usage: bin/tool [--rate R]\n", out.toString(StandardCharsets.UTF_8));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aUsageErrorGivesTheReasonAndAHintOnStandardErrorAndExitsTwo() {
        final int code = Tool.exitCode("tool", "Usage: bin/tool\n", () -> {
            parse("--frobnicate");
            return 0;
        });
        assertEquals(2, code);
        assertEquals("tool: unknown option --frobnicate\nTry 'bin/tool --help'.\n", err.toString(StandardCharsets.UTF_8).replace("\r", ""));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aConfigurationErrorIsAUsageErrorToo() {
        final int code = Tool.exitCode("tool", "", () -> {
            throw new ConfigYaml.ConfigException("engine.yaml:3: unknown key 'x'");
        });
        assertEquals(2, code);
        assertEquals("tool: engine.yaml:3: unknown key 'x'\nTry 'bin/tool --help'.\n",
            err.toString(StandardCharsets.UTF_8).replace("\r", ""));
    }

    @Test
    void aFailureGivesTheReasonWithoutTheHintAndExitsOne() {
        final int code = Tool.exitCode("tool", "", () -> {
            throw new Tool.Failure("cannot connect to 127.0.0.1:1");
        });
        assertEquals(1, code);
        assertEquals("tool: cannot connect to 127.0.0.1:1\n", err.toString(StandardCharsets.UTF_8).replace("\r", ""));
    }

    @Test
    void theBodysOwnCodeOtherwiseAndOneWithTheStackForAnUnexpectedException() {
        assertEquals(0, Tool.exitCode("tool", "", () -> 0));
        assertEquals(3, Tool.exitCode("tool", "", () -> 3));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        assertEquals(1, Tool.exitCode("tool", "", () -> {
            throw new IllegalStateException("boom");
        }));
        final String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("tool: java.lang.IllegalStateException: boom"), text);
        assertTrue(text.contains("at io.chronex.runtime.ArgsTest"), "with the stack trace: " + text);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }
}
