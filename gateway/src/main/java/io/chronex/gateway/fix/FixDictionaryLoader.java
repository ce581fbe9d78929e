package io.chronex.gateway.fix;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a dictionary in QuickFIX/J's XML format (fields, components, header, trailer, messages) into a
 * {@link FixDictionary}. Start-up only: it allocates freely and fails on anything it does not understand.
 *
 * <p>Required-ness follows QuickFIX/J: a field or group inside a component is required only if the
 * component is (at every level); the members of a group are required per instance as declared.
 */
final class FixDictionaryLoader {
    private final Map<String, Integer> tagByName = new HashMap<>();
    private final Map<String, Element> components = new HashMap<>();
    private byte[] types;
    private String[] names;
    private byte[][][] values;

    private FixDictionaryLoader() {
    }

    static FixDictionary load(final InputStream in) throws IOException {
        final Element root = parse(in).getDocumentElement();
        final FixDictionaryLoader loader = new FixDictionaryLoader();
        loader.fields(child(root, "fields"));
        for (final Element component : children(child(root, "components"))) {
            loader.components.put(component.getAttribute("name"), component);
        }
        final FixScope header = loader.scope("header", 0, child(root, "header"));
        final FixScope trailer = loader.scope("trailer", 0, child(root, "trailer"));
        final Map<Integer, FixScope> bodies = new HashMap<>();
        for (final Element message : children(child(root, "messages"))) {
            final String msgType = message.getAttribute("msgtype");
            if (msgType.isEmpty() || msgType.length() > 2) {
                throw new IllegalStateException("message " + message.getAttribute("name") + " has MsgType '" + msgType + "'");
            }
            bodies.put(FixMsgTypes.of(msgType), loader.scope(message.getAttribute("name"), 0, message));
        }
        return new FixDictionary(loader.types, loader.names, loader.values, header, trailer, bodies);
    }

    private static Document parse(final InputStream in) throws IOException {
        try {
            final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(in);
        } catch (final ParserConfigurationException | SAXException e) {
            throw new IOException("not a FIX dictionary: " + e.getMessage(), e);
        }
    }

    /** Every field's type, name and enumerated values, in arrays indexed by tag. */
    private void fields(final Element fields) {
        int maxTag = 0;
        for (final Element field : children(fields)) {
            maxTag = Math.max(maxTag, Integer.parseInt(field.getAttribute("number")));
        }
        types = new byte[maxTag + 1];
        names = new String[maxTag + 1];
        values = new byte[maxTag + 1][][];
        for (final Element field : children(fields)) {
            final int tag = Integer.parseInt(field.getAttribute("number"));
            final String name = field.getAttribute("name");
            final List<Element> enums = children(field);
            final byte[][] enumerated = new byte[enums.size()][];
            boolean multiByte = false;
            for (int i = 0; i < enumerated.length; i++) {
                enumerated[i] = enums.get(i).getAttribute("enum").getBytes(StandardCharsets.US_ASCII);
                multiByte |= enumerated[i].length > 1;
            }
            byte type = FixFieldTypes.of(field.getAttribute("type"));
            if (type == FixFieldTypes.CHAR && multiByte) {
                // MiscFeeType (139) and MassCancelRejectReason (532) are CHAR with values such as "10" and "99":
                // the enumeration is what the values are checked against, not the one-byte length.
                type = FixFieldTypes.STRING;
            }
            types[tag] = type;
            names[tag] = name;
            // allowOtherValues (SymbolSfx, 65) lists common values without limiting the field to them.
            if (enumerated.length > 0 && !"true".equals(field.getAttribute("allowOtherValues"))) {
                values[tag] = enumerated;
            }
            tagByName.put(name, tag);
        }
    }

    private FixScope scope(final String name, final int countTag, final Element element) {
        final Members members = new Members();
        addMembers(element, true, members);
        if (countTag != 0 && members.tags.isEmpty()) {
            throw new IllegalStateException("group " + name + " has no fields");
        }
        final int[] tags = members.tags.stream().mapToInt(Integer::intValue).toArray();
        final boolean[] required = new boolean[tags.length];
        for (int i = 0; i < tags.length; i++) {
            required[i] = members.required.get(i);
        }
        return new FixScope(name, countTag, tags, required, members.groups.toArray(new FixScope[0]));
    }

    /** The fields and groups of an element in order, components expanded in place. */
    private void addMembers(final Element element, final boolean enclosingRequired, final Members members) {
        for (final Element child : children(element)) {
            final String name = child.getAttribute("name");
            final boolean required = enclosingRequired && "Y".equals(child.getAttribute("required"));
            switch (child.getTagName()) {
                case "field" -> members.add(tag(name), required, null);
                case "group" -> members.add(tag(name), required, scope(name, tag(name), child));
                case "component" -> {
                    final Element component = components.get(name);
                    if (component == null) {
                        throw new IllegalStateException("component " + name + " is not defined");
                    }
                    addMembers(component, required, members);
                }
                default -> throw new IllegalStateException("unexpected <" + child.getTagName() + "> in " + element.getAttribute("name"));
            }
        }
    }

    private int tag(final String name) {
        final Integer tag = tagByName.get(name);
        if (tag == null) {
            throw new IllegalStateException("field " + name + " is used but not defined");
        }
        return tag;
    }

    private static Element child(final Element parent, final String name) {
        for (final Element child : children(parent)) {
            if (child.getTagName().equals(name)) {
                return child;
            }
        }
        throw new IllegalStateException("no <" + name + "> in <" + parent.getTagName() + ">");
    }

    private static List<Element> children(final Element parent) {
        final List<Element> elements = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element e) {
                elements.add(e);
            }
        }
        return elements;
    }

    /** One scope's members while it is read. */
    private static final class Members {
        final List<Integer> tags = new ArrayList<>();
        final List<Boolean> required = new ArrayList<>();
        final List<FixScope> groups = new ArrayList<>();

        void add(final int tag, final boolean isRequired, final FixScope group) {
            if (tags.contains(tag)) {
                // Twice in one scope (through two components, say), a field's place would be ambiguous; FIX 4.4 has none.
                throw new IllegalStateException("tag " + tag + " appears twice at one level");
            }
            tags.add(tag);
            required.add(isRequired);
            groups.add(group);
        }
    }
}
