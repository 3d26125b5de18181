package org.sessionj.examples.portal;

import org.sessionj.api.Protocol;

/**
 * The webmail application, from the front end (the paper does not print it): the user's name, then
 * any number of commands: list the mailbox, read a message, send one, quit.
 */
@Protocol("""
        !<String>.
        rec X[
          !{
            LIST: ?(String[]).#X,
            READ: !<int>.?(Mail).#X,
            SEND: !<Mail>.?(String).#X,
            QUIT:
          }
        ]
        """)
public interface AppletToWebmail {
}
