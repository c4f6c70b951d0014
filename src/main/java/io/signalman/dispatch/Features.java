package io.signalman.dispatch;

import io.signalman.rulelang.RuleVocabulary;

/**
 * The structural features model-routing rules score (seed 004), one per decision. None of them
 * reads the meaning of the text, so routing behaves the same in every language.
 *
 * @param tokenEstimate     CJK code points count one each, every other code point a quarter
 * @param codeBlockCount    complete fenced code blocks (pairs of ```)
 * @param recentToolCalls   tool calls over the last six history entries
 * @param conversationDepth history entries in all
 * @param hasAttachments    embedded media (data URIs) or a media file extension in the text
 */
@RuleVocabulary
public record Features(int tokenEstimate, int codeBlockCount, int recentToolCalls, int conversationDepth,
                       boolean hasAttachments) {
}
