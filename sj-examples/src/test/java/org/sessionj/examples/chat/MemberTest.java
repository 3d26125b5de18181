package org.sessionj.examples.chat;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A member's outbox: how its event stream ends. */
class MemberTest {
    private static Member member() {
        return new Member(1, "tess", new FloodLimit(10, 10), 0);
    }

    /**
     * The session's way out drops every member, also one that has just quit: its QUIT, still queued for the
     * stream, must stay its stream's ending (before, the drop discarded it and the client's stream failed).
     */
    @Test
    void aDropAfterTheQuitKeepsTheQuit() throws InterruptedException {
        Member member = member();
        member.offer(new Outgoing.Message(new MessageEvent(1, "tess", "hello")));
        member.finish(new Outgoing.Quit(new UserQuitEvent(1, "you left the chat")));
        member.drop("the client's session ended");
        assertThat(member.next(0)).isInstanceOf(Outgoing.Message.class);
        assertThat(member.next(0)).isInstanceOf(Outgoing.Quit.class);
        assertThat(member.next(0)).isNull();
    }

    /** A drop of a member that has not quit discards what is queued and fails the stream at once. */
    @Test
    void aDropBeforeAnyQuitFailsTheStream() throws InterruptedException {
        Member member = member();
        member.offer(new Outgoing.Message(new MessageEvent(1, "tess", "hello")));
        member.drop("too slow");
        assertThat(member.next(0)).isEqualTo(new Outgoing.Drop("too slow"));
        member.finish(new Outgoing.Quit(new UserQuitEvent(1, "late")));
        assertThat(member.next(0)).isNull();
        assertThat(member.offer(new Outgoing.Message(new MessageEvent(1, "tess", "late")))).isFalse();
    }
}
