package io.chronex.gateway.fix;

/**
 * One level of FIX 4.4 message structure, components already expanded: the header, the trailer, a
 * message type's body, or one instance of a repeating group. Members keep the dictionary's order,
 * which is the order a group instance must follow; a group's first member is its delimiter. A tag's
 * member index is found in an open-addressing table, so lookups are a multiply and a probe or two.
 */
final class FixScope {
    /** The message or group name, for texts. */
    final String name;
    /** The NumInGroup tag of a repeating group; 0 for the header, trailer and bodies. */
    final int countTag;
    /** Member tags in dictionary order. */
    final int[] tags;
    /** By member: the group a NumInGroup member opens, else null. */
    final FixScope[] groups;
    /** By member index i, and at tags.length: the first required member at i or later, else tags.length. */
    private final int[] nextRequired;
    private final int[] slotTags;
    private final int[] slotMembers;
    private final int slotShift;

    FixScope(final String name, final int countTag, final int[] tags, final boolean[] required, final FixScope[] groups) {
        this.name = name;
        this.countTag = countTag;
        this.tags = tags;
        this.groups = groups;
        nextRequired = new int[tags.length + 1];
        nextRequired[tags.length] = tags.length;
        for (int i = tags.length - 1; i >= 0; i--) {
            nextRequired[i] = required[i] ? i : nextRequired[i + 1];
        }
        // At most half full, so a probe sequence is short and always ends at an empty slot.
        int size = 2;
        while (size < tags.length * 2) {
            size <<= 1;
        }
        slotShift = 32 - Integer.numberOfTrailingZeros(size);
        slotTags = new int[size];
        slotMembers = new int[size];
        for (int i = 0; i < tags.length; i++) {
            int slot = slot(tags[i]);
            while (slotTags[slot] != 0) {
                slot = (slot + 1) & (slotTags.length - 1);
            }
            slotTags[slot] = tags[i];
            slotMembers[slot] = i;
        }
    }

    /** The member index of tag, or -1. */
    int indexOf(final int tag) {
        int slot = slot(tag);
        while (true) {
            final int t = slotTags[slot];
            if (t == tag) {
                return slotMembers[slot];
            }
            if (t == 0) {
                return -1;
            }
            slot = (slot + 1) & (slotTags.length - 1);
        }
    }

    /** The first required member at index from or later, or tags.length when none is. */
    int firstRequiredFrom(final int from) {
        return nextRequired[from];
    }

    private int slot(final int tag) {
        return (tag * 0x9E3779B9) >>> slotShift;
    }
}
