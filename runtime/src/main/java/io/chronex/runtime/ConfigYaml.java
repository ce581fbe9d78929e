package io.chronex.runtime;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.CollectionEndEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Strict reading of one YAML configuration file, shared by every process's config loader: every
 * mistake becomes a {@link ConfigException} "file:line: reason", and unknown or repeated keys are
 * errors rather than silently ignored.
 */
public final class ConfigYaml {
    /** A configuration mistake, with the file and line it is on. */
    public static final class ConfigException extends Exception {
        private static final long serialVersionUID = 1L;

        public ConfigException(final String message) {
            super(message);
        }
    }

    /** Largest configuration file read. */
    public static final int MAX_BYTES = 1 << 20;
    /** Deepest nesting of lists and mappings (the shipped files use 3). */
    public static final int MAX_NESTING = 32;

    private final Path file;
    /** What errors name: the file, or where a document that is not a file came from. */
    private final String name;
    /** The document when it is not read from {@link #file}, else null. */
    private final byte[] given;

    public ConfigYaml(final Path file) {
        this.file = file;
        this.name = file.toString();
        this.given = null;
    }

    /** A document that is not a file (a configuration recorded in the journal), named {@code name} in errors; same rules. */
    public ConfigYaml(final String name, final byte[] document) {
        this.file = null;
        this.name = name;
        this.given = document.clone();
    }

    public Path file() {
        return file;
    }

    /** The document's root node; an empty file is an error naming what it needs. */
    public Node root(final String needs) throws ConfigException {
        final String text = text();
        final LoaderOptions options = new LoaderOptions();
        options.setNestingDepthLimit(MAX_NESTING + 1); // the event scan below says where; this only backs it up
        options.setCodePointLimit(MAX_BYTES);
        final Yaml yaml = new Yaml(new SafeConstructor(options));
        final Node root;
        try {
            checkNesting(yaml, text);
            root = yaml.compose(new StringReader(text));
        } catch (final MarkedYAMLException e) {
            throw new ConfigException(name + ":" + (e.getProblemMark().getLine() + 1) + ": not valid YAML: " + e.getProblem());
        } catch (final YAMLException e) {
            throw new ConfigException(name + ": not valid YAML: " + e.getMessage());
        }
        if (root == null) {
            throw new ConfigException(name + ":1: empty configuration; it needs " + needs);
        }
        return root;
    }

    /**
     * The file as text, refused before any parsing when it is not one: a directory, missing, larger than {@link #MAX_BYTES}
     * (a configuration is a page or two; a huge one took 18 s to fail), or holding a NUL, another control character or
     * bytes that are not UTF-8 (a binary picked by mistake).
     */
    private String text() throws ConfigException {
        final byte[] bytes = given != null ? checkedSize(given) : read();
        for (int i = 0; i < bytes.length; i++) {
            final int b = bytes[i] & 0xff;
            if (b < 0x20 && b != '\t' && b != '\n' && b != '\r' || b == 0x7f) {
                throw new ConfigException(name + ":" + lineAt(bytes, i) + ": not a text configuration: "
                    + (b == 0 ? "a NUL byte" : String.format("control character 0x%02x", b)));
            }
        }
        final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
        final ByteBuffer in = ByteBuffer.wrap(bytes);
        final CharBuffer out = CharBuffer.allocate(bytes.length);
        final CoderResult result = utf8.decode(in, out, true);
        if (result.isError()) {
            throw new ConfigException(name + ":" + lineAt(bytes, in.position()) + ": not a text configuration: bytes that are not UTF-8");
        }
        final String text = out.flip().toString();
        return text.startsWith("\uFEFF") ? text.substring(1) : text; // a byte-order mark some editors write
    }

    private byte[] checkedSize(final byte[] bytes) throws ConfigException {
        if (bytes.length > MAX_BYTES) {
            throw new ConfigException(name + ": " + bytes.length + " bytes; a configuration is at most " + MAX_BYTES + " bytes");
        }
        return bytes;
    }

    private byte[] read() throws ConfigException {
        final byte[] bytes;
        try {
            if (Files.isDirectory(file)) {
                throw new ConfigException(file + ": a directory, not a configuration file");
            }
            if (Files.exists(file) && !Files.isRegularFile(file)) {
                // /dev/zero, a pipe, a /proc file: their size says 0 and a read would not end.
                throw new ConfigException(file + ": not a regular file");
            }
            final long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new ConfigException(file + ": " + size + " bytes; a configuration file is at most " + MAX_BYTES + " bytes");
            }
            try (java.io.InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(MAX_BYTES + 1); // bounded even if the file grows while it is read
            }
            if (bytes.length > MAX_BYTES) {
                throw new ConfigException(file + ": more than " + MAX_BYTES + " bytes; a configuration file is at most " + MAX_BYTES
                    + " bytes");
            }
        } catch (final NoSuchFileException e) {
            throw new ConfigException(file + ": no such file");
        } catch (final IOException e) {
            throw new ConfigException(file + ": cannot read: " + e.getMessage());
        }
        return bytes;
    }

    private static int lineAt(final byte[] bytes, final int position) {
        int line = 1;
        for (int i = 0; i < position; i++) {
            if (bytes[i] == '\n') {
                line++;
            }
        }
        return line;
    }

    /**
     * Refuses nesting deeper than {@link #MAX_NESTING} at the line where it happens: the parser's events come from a loop, not
     * recursion, so a document 20,000 levels deep is looked at without a stack overflow; composing it would not be.
     */
    private void checkNesting(final Yaml yaml, final String text) throws ConfigException {
        int depth = 0;
        for (final Event event : yaml.parse(new StringReader(text))) {
            if (event instanceof CollectionStartEvent) {
                if (++depth > MAX_NESTING) {
                    throw new ConfigException(name + ":" + (event.getStartMark().getLine() + 1) + ": not valid YAML: nesting deeper than "
                        + MAX_NESTING + " levels");
                }
            } else if (event instanceof CollectionEndEvent) {
                depth--;
            }
        }
    }

    public Map<String, Node> mapping(final Node node, final Set<String> allowed) throws ConfigException {
        if (!(node instanceof MappingNode mapping)) {
            throw error(node, "expected a mapping of " + allowed);
        }
        final Map<String, Node> values = new LinkedHashMap<>();
        for (final NodeTuple tuple : mapping.getValue()) {
            final String key = scalar(tuple.getKeyNode());
            if (!allowed.contains(key)) {
                throw error(tuple.getKeyNode(), "unknown key '" + key + "'; expected one of " + allowed);
            }
            if (values.put(key, tuple.getValueNode()) != null) {
                throw error(tuple.getKeyNode(), "'" + key + "' is given twice");
            }
        }
        return values;
    }

    public List<Node> sequence(final Node node) throws ConfigException {
        if (!(node instanceof SequenceNode sequence)) {
            throw error(node, "expected a list");
        }
        return sequence.getValue();
    }

    public String scalar(final Node node) throws ConfigException {
        if (!(node instanceof ScalarNode scalar)) {
            throw error(node, "expected a single value");
        }
        return scalar.getValue();
    }

    public boolean bool(final Node node) throws ConfigException {
        final String value = scalar(node);
        if (value.equals("true") || value.equals("false")) {
            return Boolean.parseBoolean(value);
        }
        throw error(node, "expected true or false, found '" + value + "'");
    }

    public long number(final Node node, final String key) throws ConfigException {
        final String value = scalar(node).replace("_", "");
        try {
            return Long.parseLong(value);
        } catch (final NumberFormatException e) {
            throw error(node, key + " must be a whole number (prices and quantities are ticks and lots), found '" + scalar(node) + "'");
        }
    }

    public long required(final Node owner, final Map<String, Node> m, final String key) throws ConfigException {
        if (!m.containsKey(key)) {
            throw error(owner, "'" + key + "' is missing");
        }
        return number(m.get(key), key);
    }

    public long optional(final Map<String, Node> m, final String key, final long fallback) throws ConfigException {
        return m.containsKey(key) ? number(m.get(key), key) : fallback;
    }

    /** {@link #optional(Map, String, long)}, refused with file:line unless within min..max. */
    public long bounded(final Map<String, Node> m, final String key, final long fallback, final long min, final long max)
        throws ConfigException {
        final long value = optional(m, key, fallback);
        if (value < min || value > max) {
            throw error(m.get(key), key + " must be " + min + ".." + max + ", found " + value);
        }
        return value;
    }

    public String optionalString(final Map<String, Node> m, final String key, final String fallback) throws ConfigException {
        return m.containsKey(key) ? scalar(m.get(key)) : fallback;
    }

    public ConfigException error(final Node node, final String reason) {
        return new ConfigException(name + ":" + (node.getStartMark().getLine() + 1) + ": " + reason);
    }
}
