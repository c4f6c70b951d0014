package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A changed decision said in words, plural and singular. */
class ChangeWordsTest {

    private static JsonNode json(String s) throws Exception {
        return Json.parse(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void aModelSwitchIsSaidBeforeItsScore() throws Exception {
        Map<String, JsonNode[]> diff = Map.of("model", new JsonNode[] {json("{\"name\": \"claude\", \"light\": false, \"score\": 0.35}"),
            json("{\"name\": \"gemini\", \"light\": true, \"score\": 0.3}")});
        assertEquals(new ChangeWords.Phrase("move from the heavy to the light model", "moves from the heavy to the light model"),
                ChangeWords.of(diff));
    }

    @Test
    void aLowerScoreOnTheSameModelIsSaidAsSuch() throws Exception {
        Map<String, JsonNode[]> diff = Map.of("model", new JsonNode[] {json("{\"name\": \"claude\", \"light\": false, \"score\": 0.75}"),
            json("{\"name\": \"claude\", \"light\": false, \"score\": 0.7}")});
        assertEquals("keep their model with a lower score", ChangeWords.of(diff).many());
    }

    @Test
    void recipientsAndTheDecidingRuleAreNamed() throws Exception {
        Map<String, JsonNode[]> diff = new LinkedHashMap<>();
        diff.put("primary_recipients", new JsonNode[] {json("[\"vp-trading\"]"), json("[\"cfo\"]")});
        diff.put("rule", new JsonNode[] {json("\"trades\""), json("\"trades to the CFO\"")});
        ChangeWords.Phrase p = ChangeWords.of(diff);
        assertEquals("go to cfo instead of vp-trading, and are decided by trades to the CFO instead of trades", p.many());
        assertEquals("goes to cfo instead of vp-trading, and is decided by trades to the CFO instead of trades", p.one());
    }
}
