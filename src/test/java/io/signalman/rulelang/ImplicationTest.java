package io.signalman.rulelang;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which conditions always hold when another does, for the shapes analysts write. */
class ImplicationTest {

    private static RuleReading when(String condition) {
        String text = "package p;\nrule \"r\"\nwhen\n    " + condition + "\nthen\n    decide.store();\nend\n";
        return RuleFile.read(text, null).rules().get(0);
    }

    @ParameterizedTest(name = "{0}  =>  {1}: {2}")
    @CsvSource(delimiter = ';', textBlock = """
            Message( subtype == "trade.executed" )             ; Message( subtype str[startsWith] "trade." )     ; true
            Message( subtype str[startsWith] "trade.ex" )      ; Message( subtype str[startsWith] "trade." )     ; true
            Message( subtype str[startsWith] "trade." )        ; Message( subtype == "trade.executed" )          ; false
            Message( subtype == "a.report" )                   ; Message( subtype str[endsWith] ".report" )      ; true
            Message( subtype in ("a", "b") )                   ; Message( subtype == "a" || subtype == "b" )     ; true
            Message( subtype == "c" )                          ; Message( subtype in ("a", "b") )                ; false
            Message( subtype == "trade.x" )                    ; Message( subtype matches "trade\\\\..*" )       ; true
            Message( type == "event", subtype == "x" )         ; Message( type != "escalation" )                 ; true
            Message( type == "escalation" )                    ; Message( type != "escalation" )                 ; false
            Features( tokenEstimate > 200 )                    ; Features( tokenEstimate > 50 )                  ; true
            Features( tokenEstimate >= 50 )                    ; Features( tokenEstimate > 50 )                  ; false
            Features( tokenEstimate > 50, tokenEstimate <= 200 ) ; Features( tokenEstimate <= 300 )              ; true
            Features( tokenEstimate == 7 )                     ; Features( tokenEstimate >= 1, tokenEstimate <= 10 ) ; true
            Features( tokenEstimate == 10 )                    ; Features( tokenEstimate <= 10 )                 ; true
            Features( tokenEstimate == 10 )                    ; Features( tokenEstimate < 10 )                  ; false
            Features( tokenEstimate == 10 )                    ; Features( tokenEstimate >= 10 )                 ; true
            Features( tokenEstimate == 10 )                    ; Features( tokenEstimate > 10 )                  ; false
            Features( tokenEstimate <= 10 )                    ; Features( tokenEstimate <= 10 )                 ; true
            Features( tokenEstimate < 10 )                     ; Features( tokenEstimate <= 10 )                 ; true
            Features( tokenEstimate <= 10 )                    ; Features( tokenEstimate < 10 )                  ; false
            Features( tokenEstimate < 10 )                     ; Features( tokenEstimate < 10 )                  ; true
            Features( tokenEstimate <= 9 )                     ; Features( tokenEstimate < 10 )                  ; true
            Features( tokenEstimate >= 10 )                    ; Features( tokenEstimate >= 10 )                 ; true
            Features( tokenEstimate > 10 )                     ; Features( tokenEstimate >= 10 )                 ; true
            Features( tokenEstimate >= 11 )                    ; Features( tokenEstimate > 10 )                  ; true
            Action( name == "review", number("quality") >= 0.9 ) ; Action( name == "review", number("quality") >= 0.7 ) ; true
            Action( name == "review" )                         ; Action( name == "review", number("quality") >= 0.7 ) ; false
            Inbound( channel == "slack", mentioned )           ; Inbound( mentioned )                            ; true
            Inbound( channel == "slack" )                      ; Inbound( !mentioned )                           ; false
            Message( subtype == "x" )                          ; Message( subtype == "x" ) AgentCard( id == "y" ) ; false
            Message( subtype == "x" )                          ; not Message( type == "y" )                      ; false
            AgentCard( mayPublish("trade x") )                 ; AgentCard( mayPublish("tradex") )               ; false
            AgentCard( mayPublish( "trade.x" ) )               ; AgentCard( mayPublish("trade.x") )              ; true
            """)
    void aConditionImpliesAnotherOnlyWhenEveryFactItMatchesMatchesTheOther(String lower, String higher, boolean implied) {
        assertEquals(implied, Implication.implies(when(lower), when(higher), Set.of()));
    }
}
