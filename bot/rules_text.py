"""The rules of every variant, as ``/domino rules`` shows them, in English, Spanish and
Portuguese.

Written by hand in each language with the players' own words (Spanish: ficha, mano/data,
pasar, dominar, tranca/tranque, capicúa; Portuguese: pedra, rodada, passar a vez, bater,
tranca, carroça) rather than translated sentence by sentence. Every decision of
``RULES.md`` where the sources are silent is stated ("Our decision"). ``{first_hand}`` and
the other option names are filled with the option names the reader's Discord shows.
"""

from __future__ import annotations

from bot.i18n import OPTION_NAME, language, lookup

OPTIONS = ("first_hand", "next_hand", "scoring", "blocked", "target")

COMMON: dict[str, str] = {
    "en": (
        "**Common rules**\n"
        "- A tile a-b is worth a+b pips. The double-six set has 28 tiles (0-0 to 6-6), the "
        "double-nine set 55.\n"
        "- Play passes to the next seat. In games in pairs, seats 1 and 3 play against 2 and "
        "4 (partners sit apart).\n"
        "- The first tile opens the line; every later tile must match one of the two open "
        "ends. If a tile fits both ends with different numbers, you choose the end. Doubles "
        "are drawn crosswise but are ordinary tiles: no spinner.\n"
        "- A hand ends by **domino** (a player lays his last tile) or by **block** (tranca): "
        "nobody can play or draw. Without a pile that means both ends show the same number "
        "and all its tiles are on the table, or everybody has passed in a row.\n"
        '- "The previous hand\'s winner" is the player who dominoed; after a block, the '
        "player with the fewest pips on the winning side (on a tie inside the side, the "
        "first one after the player who blocked). After a hand nobody won, the previous "
        "opener opens again.\n"
        "- No bonuses (premios: capicúa, pass on the first tile, dead 0-0…) and no "
        "all-fives scoring in these variants."
    ),
    "es": (
        "**Reglas comunes**\n"
        "- Una ficha a-b vale a+b puntos. El dominó doble seis tiene 28 fichas (del 0-0 al "
        "6-6); el doble nueve, 55.\n"
        "- El turno pasa al asiento siguiente. En las partidas por parejas, los asientos 1 y "
        "3 juegan contra el 2 y el 4 (los compañeros se sientan enfrentados).\n"
        "- La primera ficha es la salida; cada ficha siguiente tiene que casar con una de las "
        "dos puntas. Si una ficha entra por las dos puntas con números distintos, eliges tú "
        "la punta. Los dobles (mulas) se dibujan cruzados, pero son fichas normales: no abren "
        "más puntas.\n"
        "- Una mano (data) termina cuando alguien **domina** (pone su última ficha) o en "
        "**tranca** (tranque, cierre): nadie puede jugar ni robar. Sin pozo, eso quiere decir "
        "que las dos puntas muestran el mismo número y todas sus fichas están en la mesa, o "
        "que todos han pasado seguidos.\n"
        "- «El ganador de la mano anterior» es quien dominó; tras una tranca, el jugador con "
        "menos puntos del bando ganador (si empatan dentro del bando, el primero después de "
        "quien trancó). Tras una mano sin ganador vuelve a salir quien salió en ella.\n"
        "- En estas modalidades no hay premios (capicúa, pase de salida, 0-0 muerto…) ni se "
        "cuentan los múltiplos de cinco."
    ),
    "pt": (
        "**Regras comuns**\n"
        "- Uma pedra a-b vale a+b pontos. O jogo duplo-seis tem 28 pedras (da 0-0 à 6-6); o "
        "duplo-nove, 55.\n"
        "- A vez passa para o próximo lugar. Nos jogos em duplas, os lugares 1 e 3 jogam "
        "contra o 2 e o 4 (os parceiros ficam frente a frente).\n"
        "- A primeira pedra é a saída; cada pedra seguinte tem que encaixar numa das duas "
        "pontas. Se uma pedra encaixa nas duas pontas com números diferentes, você escolhe a "
        "ponta. As carroças (pedras dobradas) aparecem atravessadas, mas são pedras comuns: "
        "não abrem mais pontas.\n"
        "- Uma rodada termina quando alguém **bate** (joga sua última pedra) ou na **tranca** "
        "(jogo trancado): ninguém pode jogar nem comprar. Sem monte, isso quer dizer que as "
        "duas pontas mostram o mesmo número e todas as pedras dele já estão na mesa, ou que "
        "todos passaram a vez seguidos.\n"
        '- "O vencedor da rodada anterior" é quem bateu; depois de uma tranca, o jogador '
        "com menos pontos do lado vencedor (empate dentro do lado: o primeiro depois de quem "
        "trancou). Depois de uma rodada sem vencedor, sai de novo quem saiu nela.\n"
        "- Nestas modalidades não há prêmios (capicua, passe na saída, 0-0 morta…) nem "
        "contagem de múltiplos de cinco."
    ),
}

RULES: dict[str, dict[str, str]] = {
    "partners": {
        "en": (
            "4 players in two pairs, 7 tiles each; all 28 are dealt, there is no pile.\n"
            "- First hand (option `{first_hand}`): *double-six* (default): the holder of 6-6 "
            "opens with it; *random*: a random player opens with any tile.\n"
            "- Later hands (option `{next_hand}`): *rotate* (default): the player after the "
            "previous opener; *winner*: the previous hand's winner. Any tile.\n"
            "- If you cannot play, you pass.\n"
            "- Domino (option `{scoring}`): *opponents* (default): the winners score the pips "
            "left in the losing pair's hands; *all*: every pip left, partner's included.\n"
            "- Block (option `{blocked}`): *team* (default): the pair with fewer pips wins; "
            "*individual*: the pair of the single player with the fewest pips wins. Points as "
            "for a domino. **Our decision:** a tie scores nothing.\n"
            "- The match goes to 100 points (option `{target}`: 50, 100, 150 or 200)."
        ),
        "es": (
            "4 jugadores en dos parejas, 7 fichas cada uno; se reparten las 28, no hay pozo.\n"
            "- Primera mano (opción `{first_hand}`): *doble seis* (por defecto): sale quien "
            "tiene el 6-6, con el 6-6; *al azar*: sale un jugador al azar, con cualquier "
            "ficha.\n"
            "- Manos siguientes (opción `{next_hand}`): *rotación* (por defecto): sale el "
            "jugador siguiente al que salió en la mano anterior; *ganador*: sale quien ganó la "
            "mano anterior. Con cualquier ficha.\n"
            "- Si no puedes jugar, pasas.\n"
            "- Al dominar (opción `{scoring}`): *rivales* (por defecto): la pareja ganadora se "
            "anota los puntos que les quedan a los rivales; *todos*: todos los puntos que "
            "quedan, también los del compañero.\n"
            "- En la tranca (opción `{blocked}`): *pareja* (por defecto): gana la pareja que "
            "suma menos puntos; *individual*: gana la pareja del jugador con menos puntos. Se "
            "anota como al dominar. **Decisión nuestra:** si hay empate, nadie se anota nada.\n"
            "- La partida es a 100 puntos (opción `{target}`: 50, 100, 150 o 200)."
        ),
        "pt": (
            "4 jogadores em duas duplas, 7 pedras cada um; as 28 são distribuídas, não há "
            "monte.\n"
            "- Primeira rodada (opção `{first_hand}`): *carroça de seis* (padrão): quem tem a "
            "6-6 sai com ela; *sorteio*: um jogador sorteado sai com qualquer pedra.\n"
            "- Rodadas seguintes (opção `{next_hand}`): *rodízio* (padrão): sai o jogador "
            "depois de quem saiu na rodada anterior; *vencedor*: sai quem venceu a rodada "
            "anterior. Com qualquer pedra.\n"
            "- Se não puder jogar, você passa a vez.\n"
            "- Na batida (opção `{scoring}`): *adversários* (padrão): a dupla vencedora marca "
            "os pontos que sobram nas mãos dos adversários; *todos*: todos os pontos que "
            "sobram, inclusive os do parceiro.\n"
            "- Na tranca (opção `{blocked}`): *dupla* (padrão): vence a dupla com menos pontos; "
            "*individual*: vence a dupla do jogador com menos pontos. Os pontos são marcados "
            "como na batida. **Nossa decisão:** empate não vale pontos.\n"
            "- A partida vai até 100 pontos (opção `{target}`: 50, 100, 150 ou 200)."
        ),
    },
    "spanish": {
        "en": (
            "Rules of the Federación Española de Dominó: 4 players in two pairs, 7 tiles each, "
            "no pile.\n"
            "- The first hand is opened by a random player, each later hand by the player "
            "after the previous opener. Any tile may open.\n"
            "- If you cannot play, you pass.\n"
            "- Domino: the winners score every pip left, their partner's included.\n"
            "- Block (tranca): the pair with fewer pips wins and scores every pip left. "
            "**Our decision:** a tie scores nothing.\n"
            "- The match goes to 150 points."
        ),
        "es": (
            "Reglas de la Federación Española de Dominó: 4 jugadores en dos parejas, 7 fichas "
            "cada uno, sin pozo.\n"
            "- La primera mano la abre un jugador al azar; cada mano siguiente, el jugador "
            "siguiente al que salió en la anterior. Se puede salir con cualquier ficha.\n"
            "- Si no puedes jugar, pasas.\n"
            "- Al dominar, la pareja ganadora se anota todos los puntos que quedan, también "
            "los del compañero.\n"
            "- En la tranca gana la pareja que suma menos puntos y se anota todos los puntos "
            "que quedan. **Decisión nuestra:** si empatan, nadie se anota nada.\n"
            "- La partida es a 150 puntos."
        ),
        "pt": (
            "Regras da Federação Espanhola de Dominó: 4 jogadores em duas duplas, 7 pedras "
            "cada um, sem monte.\n"
            "- A primeira rodada é aberta por um jogador sorteado; cada rodada seguinte, pelo "
            "jogador depois de quem saiu na anterior. Pode-se sair com qualquer pedra.\n"
            "- Se não puder jogar, você passa a vez.\n"
            "- Na batida, a dupla vencedora marca todos os pontos que sobram, inclusive os do "
            "parceiro.\n"
            "- Na tranca, vence a dupla com menos pontos e marca todos os pontos que sobram. "
            "**Nossa decisão:** empate não vale pontos.\n"
            "- A partida vai até 150 pontos."
        ),
    },
    "venezuelan": {
        "en": (
            "Like the Spanish game in pairs, but only the opponents' pips count. 4 players in "
            "two pairs, 7 tiles each, no pile.\n"
            "- The first hand is opened by a random player, each later hand by the player "
            "after the previous opener, with any tile.\n"
            "- If you cannot play, you pass.\n"
            "- Domino: the winners score the pips left in the opponents' hands; the partner's "
            "do not count.\n"
            "- Block (tranca): the pair with fewer pips wins and scores the opponents' pips. "
            "**Our decision:** a tie scores nothing.\n"
            "- The match goes to 100 points."
        ),
        "es": (
            "Como el dominó por parejas de España, pero solo cuentan los puntos de los "
            "rivales. 4 jugadores en dos parejas, 7 fichas cada uno, sin pozo.\n"
            "- La primera mano la abre un jugador al azar; cada mano siguiente, el jugador "
            "siguiente al que salió en la anterior, con cualquier ficha.\n"
            "- Si no puedes jugar, pasas.\n"
            "- Al dominar, la pareja ganadora se anota los puntos que les quedan a los rivales; "
            "los del compañero no cuentan.\n"
            "- En la tranca gana la pareja que suma menos puntos y se anota los puntos de los "
            "rivales. **Decisión nuestra:** si empatan, nadie se anota nada.\n"
            "- La partida es a 100 puntos."
        ),
        "pt": (
            "Como o jogo em duplas da Espanha, mas só contam os pontos dos adversários. "
            "4 jogadores em duas duplas, 7 pedras cada um, sem monte.\n"
            "- A primeira rodada é aberta por um jogador sorteado; cada rodada seguinte, pelo "
            "jogador depois de quem saiu na anterior, com qualquer pedra.\n"
            "- Se não puder jogar, você passa a vez.\n"
            "- Na batida, a dupla vencedora marca os pontos que sobram nas mãos dos "
            "adversários; os do parceiro não contam.\n"
            "- Na tranca, vence a dupla com menos pontos e marca os pontos dos adversários. "
            "**Nossa decisão:** empate não vale pontos.\n"
            "- A partida vai até 100 pontos."
        ),
    },
    "brazilian": {
        "en": (
            "4 players in two pairs, 7 tiles each, no pile.\n"
            "- First hand: the holder of 6-6 opens with it. Later hands: the player after the "
            "previous opener, with any tile.\n"
            "- If you cannot play, you pass.\n"
            "- Domino (batida): the winners score the opponents' pips.\n"
            "- Block (tranca): the pair with fewer pips wins and scores the other pair's pips; "
            "on a tie, the pair of the player who made the blocking move loses.\n"
            "- The match goes to 50 points."
        ),
        "es": (
            "4 jugadores en dos parejas, 7 fichas cada uno, sin pozo.\n"
            "- Primera mano: sale quien tiene el 6-6, con el 6-6. Manos siguientes: el jugador "
            "siguiente al que salió en la anterior, con cualquier ficha.\n"
            "- Si no puedes jugar, pasas.\n"
            "- Al dominar (la batida), la pareja ganadora se anota los puntos de los rivales.\n"
            "- En la tranca gana la pareja que suma menos puntos y se anota los puntos de la "
            "otra; si empatan, pierde la pareja del jugador que trancó.\n"
            "- La partida es a 50 puntos."
        ),
        "pt": (
            "4 jogadores em duas duplas, 7 pedras cada um, sem monte.\n"
            "- Primeira rodada: quem tem a carroça de seis (6-6) sai com ela. Rodadas "
            "seguintes: sai o jogador depois de quem saiu na anterior, com qualquer pedra.\n"
            "- Se não puder jogar, você passa a vez.\n"
            "- Na batida, a dupla vencedora marca os pontos dos adversários.\n"
            "- Na tranca, vence a dupla com menos pontos, marcando os pontos da outra dupla; "
            "se empatar, perde a dupla de quem trancou o jogo.\n"
            "- A partida vai até 50 pontos."
        ),
    },
    "cuban": {
        "en": (
            "Double-nine set (55 tiles), 4 players in two pairs, 10 tiles each; the other 15 "
            "stay face down, unused.\n"
            "- First hand: the holder of the highest double dealt opens with it. Later "
            "hands: the previous hand's winner (after a tied hand, the previous opener), with "
            "any tile.\n"
            "- If you cannot play, you pass.\n"
            "- Domino: the winners score the opponents' pips; the partner's do not count.\n"
            "- Block (tranque): the pair of the single player with the fewest pips wins, "
            'scoring the pips left in the opponents\' hands (the source says "placed": we '
            "read it as unplaced). **Our decision:** a tie between players of both pairs "
            "scores nothing.\n"
            "- The match goes to 100 points."
        ),
        "es": (
            "Dominó doble nueve (55 fichas), 4 jugadores en dos parejas, 10 fichas cada uno; "
            "las otras 15 se quedan boca abajo, dormidas, y no se usan.\n"
            "- Primera data: sale quien tenga el doble más alto repartido, con ese doble. "
            "Datas siguientes: sale quien ganó la anterior (tras una data empatada, quien "
            "salió en ella), con cualquier ficha.\n"
            "- Si no puedes jugar, pasas.\n"
            "- Al dominar, la pareja ganadora se anota los puntos de los rivales; los del "
            "compañero no cuentan.\n"
            "- En el tranque gana la pareja del jugador con menos puntos y se anota los puntos "
            "que les quedan a los rivales (la fuente dice «colocadas»: lo leemos como «sin "
            "colocar»). **Decisión nuestra:** si empatan jugadores de las dos parejas, nadie "
            "se anota nada.\n"
            "- La partida es a 100 puntos."
        ),
        "pt": (
            "Dominó duplo-nove (55 pedras), 4 jogadores em duas duplas, 10 pedras cada um; as "
            "outras 15 ficam viradas, dormindo, e não são usadas.\n"
            "- Primeira rodada: quem tem a maior carroça distribuída sai com ela. Rodadas "
            "seguintes: sai quem venceu a anterior (depois de uma rodada empatada, quem saiu "
            "nela), com qualquer pedra.\n"
            "- Se não puder jogar, você passa a vez.\n"
            "- Na batida, a dupla vencedora marca os pontos dos adversários; os do parceiro "
            "não contam.\n"
            "- Na tranca, vence a dupla do jogador com menos pontos, marcando os pontos que "
            'sobram nas mãos dos adversários (a fonte diz "colocadas": lemos "não '
            'colocadas"). **Nossa decisão:** se empatarem jogadores das duas duplas, '
            "ninguém marca pontos.\n"
            "- A partida vai até 100 pontos."
        ),
    },
    "seven-seven": {
        "en": (
            "Two people, each holding both seats of one pair of a Spanish game in pairs "
            "(seats 1 and 3 against 2 and 4), 7 tiles per seat, no pile. You play whichever "
            "of your seats is to move.\n"
            "- The first hand is opened by a random seat, each later hand by the seat after "
            "the previous opener, with any tile.\n"
            "- If you cannot play, you pass.\n"
            "- Domino: every pip left scores, your own other hand's included.\n"
            "- Block (tranca): the pair with fewer pips wins and scores every pip left. "
            "**Our decision:** a tie scores nothing.\n"
            "- The match goes to 150 points."
        ),
        "es": (
            "Dos personas; cada una lleva los dos asientos de una pareja de una partida por "
            "parejas de España (asientos 1 y 3 contra 2 y 4), 7 fichas por asiento, sin pozo. "
            "Juegas con el asiento al que le toque.\n"
            "- La primera mano la abre un asiento al azar; cada mano siguiente, el asiento "
            "siguiente al que salió en la anterior, con cualquier ficha.\n"
            "- Si no puedes jugar, pasas.\n"
            "- Al dominar se anotan todos los puntos que quedan, también los de tu otro "
            "juego.\n"
            "- En la tranca gana la pareja que suma menos puntos y se anota todos los puntos "
            "que quedan. **Decisión nuestra:** si empatan, nadie se anota nada.\n"
            "- La partida es a 150 puntos."
        ),
        "pt": (
            "Duas pessoas; cada uma joga os dois lugares de uma dupla de uma partida em duplas "
            "da Espanha (lugares 1 e 3 contra 2 e 4), 7 pedras por lugar, sem monte. Você joga "
            "pelo lugar que estiver na vez.\n"
            "- A primeira rodada é aberta por um lugar sorteado; cada rodada seguinte, pelo "
            "lugar depois de quem saiu na anterior, com qualquer pedra.\n"
            "- Se não puder jogar, você passa a vez.\n"
            "- Na batida, contam todos os pontos que sobram, inclusive os da sua outra mão.\n"
            "- Na tranca, vence a dupla com menos pontos e marca todos os pontos que sobram. "
            "**Nossa decisão:** empate não vale pontos.\n"
            "- A partida vai até 150 pontos."
        ),
    },
    "three": {
        "en": (
            "3 players, no teams, 27 tiles (no 0-0), 9 each, no pile.\n"
            "- First hand: the holder of 6-6 opens with it; then the player after the previous "
            "opener, with any tile.\n"
            "- If you cannot play, you pass.\n"
            "- Domino: the winner scores the sum of both opponents' pips.\n"
            "- Block (tranca): the player with the fewest pips scores the sum of the "
            "differences between each opponent's pips and his own. **Our decision:** a tie "
            "for the fewest scores nothing.\n"
            "- The match goes to 100 points."
        ),
        "es": (
            "3 jugadores, sin parejas, 27 fichas (sin el 0-0), 9 cada uno, sin pozo.\n"
            "- Primera mano: sale quien tiene el 6-6, con el 6-6; después, el jugador "
            "siguiente al que salió en la anterior, con cualquier ficha.\n"
            "- Si no puedes jugar, pasas.\n"
            "- Al dominar, el ganador se anota la suma de los puntos de sus dos rivales.\n"
            "- En la tranca, el jugador con menos puntos se anota la suma de las diferencias "
            "entre los puntos de cada rival y los suyos. **Decisión nuestra:** si empatan a "
            "menos puntos, nadie se anota nada.\n"
            "- La partida es a 100 puntos."
        ),
        "pt": (
            "3 jogadores, sem duplas, 27 pedras (sem a 0-0), 9 para cada um, sem monte.\n"
            "- Primeira rodada: quem tem a 6-6 sai com ela; depois, o jogador depois de quem "
            "saiu na anterior, com qualquer pedra.\n"
            "- Se não puder jogar, você passa a vez.\n"
            "- Na batida, o vencedor marca a soma dos pontos dos dois adversários.\n"
            "- Na tranca, o jogador com menos pontos marca a soma das diferenças entre os "
            "pontos de cada adversário e os seus. **Nossa decisão:** se houver empate no menor "
            "número de pontos, ninguém marca.\n"
            "- A partida vai até 100 pontos."
        ),
    },
    "draw": {
        "en": (
            "2 players, 7 tiles each, 14 in the pile.\n"
            "- Every hand: the holder of the highest double opens with it; if no double was "
            "dealt, the holder of the heaviest tile (most pips, then the higher end) opens "
            "with it.\n"
            "- If no tile fits, draw one at a time until one fits; then you may play it. No "
            "drawing while the pile has 2 tiles or fewer: then you pass.\n"
            "- Domino: the winner scores the opponent's pips.\n"
            "- Block: the lower pip count wins the difference; equal counts score nothing.\n"
            "- The match goes to 100 points."
        ),
        "es": (
            "2 jugadores, 7 fichas cada uno, 14 en el pozo.\n"
            "- En cada mano sale quien tiene el doble más alto, con ese doble; si no se "
            "repartió ningún doble, quien tiene la ficha más pesada (más puntos y, a "
            "igualdad, el número más alto), con esa ficha.\n"
            "- Si no llevas ficha que entre, robas del pozo de una en una hasta que entre "
            "alguna, y entonces puedes jugarla. No se roba si en el pozo quedan 2 fichas o "
            "menos: entonces pasas.\n"
            "- Al dominar, el ganador se anota los puntos del rival.\n"
            "- En la tranca, quien tiene menos puntos se anota la diferencia; si empatan, "
            "nadie se anota nada.\n"
            "- La partida es a 100 puntos."
        ),
        "pt": (
            "2 jogadores, 7 pedras cada um, 14 no monte.\n"
            "- Em cada rodada sai quem tem a maior carroça, com ela; se nenhuma carroça foi "
            "distribuída, quem tem a pedra mais pesada (mais pontos e, empatando, o número "
            "mais alto), com ela.\n"
            "- Se nenhuma pedra encaixa, compre do monte uma de cada vez até alguma encaixar; "
            "aí você pode jogá-la. Não se compra com 2 pedras ou menos no monte: então você "
            "passa a vez.\n"
            "- Na batida, o vencedor marca os pontos do adversário.\n"
            "- Na tranca, quem tem menos pontos marca a diferença; empate não vale pontos.\n"
            "- A partida vai até 100 pontos."
        ),
    },
    "two": {
        "en": (
            "2 players, 7 tiles each, 14 in the pile.\n"
            "- First hand: the highest double opens (without a double, the heaviest tile); "
            "later hands: the players take turns to open.\n"
            "- If no tile fits, draw until one fits; when the pile is empty, pass.\n"
            "- Domino: the winner scores the opponent's pips.\n"
            "- Closed line (tranca): the closer's opponent takes the rest of the pile into his "
            "hand, then the player with fewer pips scores the difference. **Our decision:** "
            "equal counts score nothing.\n"
            "- The match goes to 100 points."
        ),
        "es": (
            "2 jugadores, 7 fichas cada uno, 14 en el pozo.\n"
            "- Primera mano: sale el doble más alto (sin dobles, la ficha más pesada); en las "
            "siguientes, salen por turnos.\n"
            "- Si no llevas ficha que entre, robas hasta que entre alguna; si el pozo está "
            "vacío, pasas.\n"
            "- Al dominar, el ganador se anota los puntos del rival.\n"
            "- Si alguien cierra el juego (tranca), su rival se lleva a la mano las fichas que "
            "quedan en el pozo; después, quien tiene menos puntos se anota la diferencia. "
            "**Decisión nuestra:** si empatan, nadie se anota nada.\n"
            "- La partida es a 100 puntos."
        ),
        "pt": (
            "2 jogadores, 7 pedras cada um, 14 no monte.\n"
            "- Primeira rodada: sai a maior carroça (sem carroças, a pedra mais pesada); nas "
            "seguintes, os jogadores se alternam na saída.\n"
            "- Se nenhuma pedra encaixa, compre até alguma encaixar; com o monte vazio, passe "
            "a vez.\n"
            "- Na batida, o vencedor marca os pontos do adversário.\n"
            "- Quando alguém tranca o jogo, o adversário de quem trancou leva para a mão as "
            "pedras que sobraram no monte; depois, quem tem menos pontos marca a diferença. "
            "**Nossa decisão:** empate não vale pontos.\n"
            "- A partida vai até 100 pontos."
        ),
    },
    "penalty": {
        "en": (
            "Brettspielnetz rules: 2 players, 7 tiles each; a random non-double tile from the "
            "pile is laid as the start tile.\n"
            "- Seat 1 moves first in hand 1; the first mover alternates every hand.\n"
            "- You may not pass while a tile fits. Otherwise draw until one fits: at most 3 "
            "tiles a turn, never leaving fewer than 2 in the pile; still nothing: pass.\n"
            "- Penalty points: each player gets the pips left in his own hand; if the hand "
            "ended by domino, the loser gets 5 more.\n"
            "- The hand also ends as soon as the pile is down to 2 and the player to move "
            "cannot play: penalties as for a domino, without the extra 5.\n"
            "- Exactly 4 hands; the fewest penalty points win; equal totals are a draw."
        ),
        "es": (
            "Reglas de Brettspielnetz: 2 jugadores, 7 fichas cada uno; una ficha del pozo al "
            "azar, que no sea doble, se pone como ficha de salida.\n"
            "- En la primera mano empieza el asiento 1; en cada mano siguiente empieza el "
            "otro jugador.\n"
            "- No puedes pasar si alguna ficha entra. Si no, robas hasta que entre una: como "
            "mucho 3 fichas por turno y sin dejar nunca menos de 2 en el pozo; si aun así no "
            "entra ninguna, pasas.\n"
            "- Cada jugador recibe de penalización los puntos que le quedan en la mano; si la "
            "mano terminó porque alguien dominó, el perdedor recibe 5 más.\n"
            "- La mano también termina en cuanto el pozo baja a 2 fichas y el jugador al que "
            "le toca no puede jugar: penalización como al dominar, sin los 5 de más.\n"
            "- Se juegan exactamente 4 manos; gana quien sume menos puntos de penalización; "
            "si suman lo mismo, es empate."
        ),
        "pt": (
            "Regras do Brettspielnetz: 2 jogadores, 7 pedras cada um; uma pedra sorteada do "
            "monte, que não seja carroça, é colocada como pedra de saída.\n"
            "- Na primeira rodada começa o lugar 1; a cada rodada, quem começa se alterna.\n"
            "- Não se pode passar enquanto alguma pedra encaixa. Senão, compre até uma "
            "encaixar: no máximo 3 pedras por vez e nunca deixando menos de 2 no monte; se "
            "ainda assim nada encaixar, passe a vez.\n"
            "- Cada jogador recebe como penalidade os pontos que sobram na própria mão; se a "
            "rodada terminou em batida, o perdedor recebe mais 5.\n"
            "- A rodada também termina assim que o monte chega a 2 pedras e o jogador da vez "
            "não pode jogar: penalidades como na batida, sem os 5 extras.\n"
            "- São exatamente 4 rodadas; vence quem somar menos pontos de penalidade; com "
            "totais iguais, a partida termina empatada."
        ),
    },
}


def option_names(locale: str | None) -> dict[str, str]:
    """The option names of ``/domino new`` as the reader's Discord shows them."""
    return {name: lookup(locale, name, OPTION_NAME) or name for name in OPTIONS}


def variant_rules(locale: str | None, variant: str) -> str:
    """The rules of ``variant`` (a preset id) in the language of ``locale``."""
    texts = RULES[variant]
    return texts.get(language(locale), texts["en"]).format(**option_names(locale))


def common_rules(locale: str | None) -> str:
    """The rules every variant shares, in the language of ``locale``."""
    return COMMON.get(language(locale), COMMON["en"])


def rules_text(locale: str | None, variant: str) -> str:
    """What ``/domino rules variant`` shows: the variant's rules, then the common ones."""
    return variant_rules(locale, variant) + "\n\n" + common_rules(locale)
