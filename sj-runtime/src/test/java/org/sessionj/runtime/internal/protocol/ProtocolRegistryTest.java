package org.sessionj.runtime.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.sessionj.api.Protocol;
import org.sessionj.api.SJException;
import org.sessionj.types.Side;

class ProtocolRegistryTest {

    public record Nested(String text) {
    }

    @Protocol("cbegin.!<int>")
    public interface Described {
    }

    @Protocol("cbegin.!<Nested>.!<Sibling>.!<String>.!<java.util.List<Nested>>.!<java.util.Map<String, java.util.Locale.Category[]>>"
            + ".?(Nested[][])")
    public interface Names {
    }

    @Protocol("!<Nested>.?(Nested[][])")
    public interface Body {
    }

    @Protocol("!<int>.@(Body)")
    public interface Prefixed {
    }

    @Protocol("sbegin.^(Prefixed)")
    public interface DualOfPrefixed {
    }

    @Protocol("cbegin.!<NoSuchType>")
    public interface Unresolvable {
    }

    @Protocol("cbegin.!<int")
    public interface Unparsable {
    }

    @Protocol("cbegin.rec X[!<int>.#Y]")
    public interface IllFormed {
    }

    @Protocol("cbegin.@(Missing)")
    public interface MissingReference {
    }

    public interface NotAnnotated {
    }

    @Protocol("{@(Body), @(Prefixed),}")
    public interface BodyOrPrefixed {
    }

    /** Its descriptor (test resources) says {@code {@(…Body)}}: the descriptor wins. */
    @Protocol("{@(Prefixed)}")
    public interface DescribedSet {
    }

    @Protocol("{@(Body), !<int>}")
    public interface SetOfAType {
    }

    @Protocol("cbegin")
    public static final class NotAnInterface {
    }

    @Test
    void theProcessorsDescriptorWinsOverTheAnnotation() {
        CompiledProtocol protocol = ProtocolRegistry.of(Described.class);
        assertThat(protocol.textFor(Side.REQUEST)).isEqualTo("cbegin.!<java.lang.Integer>.?(java.util.List<java.lang.String>)");
    }

    @Test
    void namesResolveAsNestedSamePackageJavaLangOrQualified() {
        String prefix = ProtocolRegistryTest.class.getName();
        assertThat(ProtocolRegistry.of(Names.class).textFor(Side.REQUEST)).isEqualTo("cbegin.!<" + prefix + "$Nested>"
                + ".!<" + Sibling.class.getName() + ">.!<java.lang.String>.!<java.util.List<" + prefix + "$Nested>>"
                + ".!<java.util.Map<java.lang.String, java.util.Locale$Category[]>>.?(" + prefix + "$Nested[][])");
    }

    @Test
    void referencedProtocolsAreInlinedAndDualised() {
        String prefix = ProtocolRegistryTest.class.getName();
        CompiledProtocol prefixed = ProtocolRegistry.of(Prefixed.class);
        assertThat(prefixed.declaredSide()).isNull();
        assertThat(prefixed.textFor(Side.REQUEST)).startsWith("cbegin.!<int>.!<" + prefix + "$Nested>");
        assertThat(ProtocolRegistry.of(DualOfPrefixed.class).textFor(Side.ACCEPT))
                .startsWith("sbegin.?(int).?(" + prefix + "$Nested)").endsWith(".!<" + prefix + "$Nested[][]>");
    }

    @Test
    void compiledOncePerInterface() {
        assertThat(ProtocolRegistry.of(Names.class)).isSameAs(ProtocolRegistry.of(Names.class));
    }

    @Test
    void aClassThatIsNotAProtocolInterfaceIsRejectedClearly() {
        assertThatThrownBy(() -> ProtocolRegistry.of(NotAnnotated.class)).isInstanceOf(SJException.class)
                .hasMessageContaining(NotAnnotated.class.getName()).hasMessageContaining("is not a protocol");
        assertThatThrownBy(() -> ProtocolRegistry.of(NotAnInterface.class)).isInstanceOf(SJException.class)
                .hasMessageContaining("is not a protocol");
    }

    @Test
    void anUnresolvableNameSaysWhatWasTried() {
        assertThatThrownBy(() -> ProtocolRegistry.of(Unresolvable.class)).isInstanceOf(SJException.class)
                .hasMessageContaining("'NoSuchType'")
                .hasMessageContaining("java.lang.NoSuchType")
                .hasMessageContaining("fully qualified");
    }

    @Test
    void syntaxAndWellFormednessErrorsNameTheProtocol() {
        assertThatThrownBy(() -> ProtocolRegistry.of(Unparsable.class)).isInstanceOf(SJException.class)
                .hasMessageContaining(Unparsable.class.getName()).hasMessageContaining("does not parse");
        assertThatThrownBy(() -> ProtocolRegistry.of(IllFormed.class)).isInstanceOf(SJException.class)
                .hasMessageContaining(IllFormed.class.getName()).hasMessageContaining("#Y");
        assertThatThrownBy(() -> ProtocolRegistry.of(MissingReference.class)).isInstanceOf(SJException.class)
                .hasMessageContaining("Missing");
    }

    @Test
    void aSetProtocolsMembersResolveFromTheAnnotationInWrittenOrder() {
        assertThat(ProtocolRegistry.setMembers(BodyOrPrefixed.class)).contains(java.util.List.of(Body.class, Prefixed.class));
        assertThat(ProtocolRegistry.setMembers(Prefixed.class)).isEmpty();
    }

    @Test
    void aSetProtocolsDescriptorWinsOverItsAnnotation() {
        assertThat(ProtocolRegistry.setMembers(DescribedSet.class)).contains(java.util.List.of(Body.class));
    }

    @Test
    void aSetMemberThatIsNoProtocolReferenceIsRefused() {
        assertThatThrownBy(() -> ProtocolRegistry.setMembers(SetOfAType.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("member 2 of the set protocol " + SetOfAType.class.getName())
                .hasMessageContaining("is not a protocol reference @(P)");
    }

    @Test
    void aSetProtocolTypesNoSession() {
        assertThatThrownBy(() -> ProtocolRegistry.of(BodyOrPrefixed.class)).isInstanceOf(SJException.class)
                .hasMessageContaining("is a set protocol ({@(Body), @(Prefixed),})")
                .hasMessageContaining("SJSelector.of(BodyOrPrefixed.class), not one session");
        assertThatThrownBy(() -> ProtocolRegistry.of(DescribedSet.class)).isInstanceOf(SJException.class)
                .hasMessageContaining("is a set protocol");
    }
}
