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

OPTIONS = (
    "first_hand", "next_hand", "scoring", "blocked", "target", "bonuses", "players",
    "forced_moves",
)

COMMON: dict[str, str] = {
    "en": (
        "**Common rules**\n"
        "- A tile a-b is worth a+b pips. The double-six set has 28 tiles (0-0 to 6-6), the "
        "double-nine set 55.\n"
        "- Play passes to the next seat. In games in pairs, seats 1 and 3 play against 2 and "
        "4 (partners sit apart).\n"
        "- The first tile opens the line; every later tile must match one of the two open "
        "ends. If a tile fits both ends with different numbers, you choose the end. Doubles "
        "are drawn crosswise but are ordinary tiles: no spinner (except in All Fives).\n"
        "- A hand ends by **domino** (a player lays his last tile) or by **block** (tranca): "
        "nobody can play or draw. Without a pile that means both ends show the same number "
        "and all its tiles are on the table, or everybody has passed in a row.\n"
        '- "The previous hand\'s winner" is the player who dominoed; after a block, the '
        "player with the fewest pips on the winning side (on a tie inside the side, the "
        "first one after the player who blocked). Where the previous hand's winner opens "
        "the next hand (Cuban, partners with *winner*, All Fives), after a hand nobody won "
        "the previous opener opens again.\n"
        "- Forced moves (option `{forced_moves}`; on by default in Spanish pairs, "
        "Venezuelan, 7+7, for two, for three and Cuban, as on Ludoteka): when your only "
        "option is one tile on one end, or only passing, or only drawing, the bot makes that "
        "move for you after 3 seconds, and the move log marks it as forced.\n"
        "- Bonuses (premios: capicúa, pass on the first tile, dead 0-0…) only in partners "
        "with the option `{bonuses}`; points for ends adding up to multiples of five only in "
        "All Fives."
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
        "más puntas (salvo en All Fives).\n"
        "- Una mano (data) termina cuando alguien **domina** (pone su última ficha) o en "
        "**tranca** (tranque, cierre): nadie puede jugar ni robar. Sin pozo, eso quiere decir "
        "que las dos puntas muestran el mismo número y todas sus fichas están en la mesa, o "
        "que todos han pasado seguidos.\n"
        "- «El ganador de la mano anterior» es quien dominó; tras una tranca, el jugador con "
        "menos puntos del bando ganador (si empatan dentro del bando, el primero después de "
        "quien trancó). Donde sale el ganador de la mano anterior (cubano, parejas con "
        "*ganador*, All Fives), tras una mano sin ganador vuelve a salir quien salió en ella.\n"
        "- Jugadas forzadas (opción `{forced_moves}`; activadas por defecto en parejas "
        "españolas, venezolano, 7+7, para dos, para tres y cubano, como en Ludoteka): si tu "
        "única opción es una ficha por una sola punta, o solo pasar, o solo robar, el bot la "
        "hace por ti a los 3 segundos y el registro de jugadas la marca como forzada.\n"
        "- Premios (capicúa, pase de salida, 0-0 muerto…) solo en parejas con la opción "
        "`{bonuses}`; los puntos por puntas que suman múltiplos de cinco, solo en All Fives."
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
        "não abrem mais pontas (exceto no All Fives).\n"
        "- Uma rodada termina quando alguém **bate** (joga sua última pedra) ou na **tranca** "
        "(jogo trancado): ninguém pode jogar nem comprar. Sem monte, isso quer dizer que as "
        "duas pontas mostram o mesmo número e todas as pedras dele já estão na mesa, ou que "
        "todos passaram a vez seguidos.\n"
        '- "O vencedor da rodada anterior" é quem bateu; depois de uma tranca, o jogador '
        "com menos pontos do lado vencedor (empate dentro do lado: o primeiro depois de quem "
        "trancou). Onde o vencedor da rodada anterior sai na seguinte (cubano, duplas com "
        "*vencedor*, All Fives), depois de uma rodada sem vencedor sai de novo quem saiu "
        "nela.\n"
        "- Jogadas forçadas (opção `{forced_moves}`; ligadas por padrão no espanhol em "
        "duplas, venezuelano, 7+7, para dois, para três e cubano, como no Ludoteka): quando "
        "sua única opção é uma pedra numa só ponta, ou só passar a vez, ou só comprar, o bot "
        "faz a jogada por você depois de 3 segundos, e o registro de jogadas a marca como "
        "forçada.\n"
        "- Prêmios (capicua, passe na saída, 0-0 morta…) só nas duplas com a opção "
        "`{bonuses}`; pontos por pontas que somam múltiplos de cinco, só no All Fives."
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
            "- Bonuses (option `{bonuses}`, off by default), the Latin *premios* of the "
            "source's comments, each named in the hand's result:\n"
            "  - *First-tile pass*: the player after the opener cannot play and the opener's "
            "partner then plays: 25 to the opener's pair if the first tile was a double, 50 "
            "if not.\n"
            "  - *Round pass* (pase corrido): a tile after which the three others pass: 25 to "
            "its pair, for every such round. **Our decision:** the opening tile's three "
            "passes are a round pass (not a first-tile pass); a tile that blocks the hand is "
            "none (the hand ends).\n"
            "  - *Capicúa*: going out with a tile that fits either end: 25; not with a double. "
            "**Our decision:** only when the two ends show different numbers.\n"
            "  - *Dead 0-0*: the hand ends with 0-0 in the losing pair's hands, every other "
            "tile with a 0 on the table and no 0 at an end: 15 to the winners. **Our "
            "decision:** \"every other tile\" read as every other tile with a 0.\n"
            "  - A pair that needs 25 points or fewer to reach the target gets no bonus. "
            "**Our decision:** counted when the hand begins, for each pair on its own.\n"
            "- The match goes to 100 points (option `{target}`: 50, 100, 150 or 200; with the "
            "bonuses also 500 or 1000)."
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
            "- Premios (opción `{bonuses}`, desactivada por defecto), los de los comentarios "
            "de la fuente, cada uno con su nombre en el resultado de la mano:\n"
            "  - *Pase de salida*: el jugador que sigue al que salió no puede jugar y el "
            "compañero del que salió juega: 25 para su pareja si la ficha de salida era doble, "
            "50 si no.\n"
            "  - *Pase corrido*: una ficha tras la que pasan los otros tres: 25 para su "
            "pareja, por cada vuelta así. **Decisión nuestra:** los tres pases tras la ficha "
            "de salida son un pase corrido (no un pase de salida); una ficha que tranca la "
            "mano no lo es (la mano termina).\n"
            "  - *Capicúa*: dominar con una ficha que entra por las dos puntas: 25; no con un "
            "doble. **Decisión nuestra:** solo si las dos puntas muestran números distintos.\n"
            "  - *0-0 muerto*: la mano termina con el 0-0 en manos de la pareja perdedora, "
            "todas las demás fichas con 0 en la mesa y ningún 0 en las puntas: 15 para los "
            "ganadores. **Decisión nuestra:** «todas las demás fichas» se lee como todas las "
            "demás fichas con 0.\n"
            "  - Una pareja a la que le faltan 25 puntos o menos para la meta no cobra premios. "
            "**Decisión nuestra:** se cuenta al empezar la mano, para cada pareja por "
            "separado.\n"
            "- La partida es a 100 puntos (opción `{target}`: 50, 100, 150 o 200; con premios, "
            "también 500 o 1000)."
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
            "- Prêmios (opção `{bonuses}`, desligada por padrão), os dos comentários da "
            "fonte, cada um com seu nome no resultado da rodada:\n"
            "  - *Passe na saída*: o jogador depois de quem saiu não pode jogar e o parceiro "
            "de quem saiu joga: 25 para a dupla de quem saiu se a pedra de saída era carroça, "
            "50 se não.\n"
            "  - *Passe corrido*: uma pedra depois da qual os outros três passam a vez: 25 "
            "para a dupla dela, a cada volta assim. **Nossa decisão:** os três passes depois "
            "da pedra de saída são um passe corrido (não um passe na saída); uma pedra que "
            "tranca a rodada não é (a rodada termina).\n"
            "  - *Capicua*: bater com uma pedra que encaixa nas duas pontas: 25; não com "
            "carroça. **Nossa decisão:** só quando as duas pontas mostram números "
            "diferentes.\n"
            "  - *0-0 morta*: a rodada termina com a 0-0 na mão da dupla perdedora, todas as "
            "outras pedras com 0 na mesa e nenhum 0 nas pontas: 15 para os vencedores. "
            "**Nossa decisão:** \"todas as outras pedras\" lido como todas as outras pedras "
            "com 0.\n"
            "  - Uma dupla a quem faltam 25 pontos ou menos para a meta não ganha prêmios. "
            "**Nossa decisão:** conta-se no início da rodada, para cada dupla separadamente.\n"
            "- A partida vai até 100 pontos (opção `{target}`: 50, 100, 150 ou 200; com os "
            "prêmios, também 500 ou 1000)."
        ),
    },
    "spanish": {
        "en": (
            "Rules of the Federación Española de Dominó: 4 players in two pairs, 7 tiles each, "
            "no pile.\n"
            "- The first hand is opened by a random player (**Our decision:** the source names "
            "no first opener), each later hand by the player "
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
            "- La primera mano la abre un jugador al azar (**Decisión nuestra:** la fuente no "
            "dice quién sale primero); cada mano siguiente, el jugador "
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
            "- A primeira rodada é aberta por um jogador sorteado (**Nossa decisão:** a fonte "
            "não diz quem sai primeiro); cada rodada seguinte, pelo "
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
            "- The first hand is opened by a random player (**Our decision:** the source names "
            "no first opener), each later hand by the player "
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
            "- La primera mano la abre un jugador al azar (**Decisión nuestra:** la fuente no "
            "dice quién sale primero); cada mano siguiente, el jugador "
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
            "- A primeira rodada é aberta por um jogador sorteado (**Nossa decisão:** a fonte "
            "não diz quem sai primeiro); cada rodada seguinte, pelo "
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
            "- First hand: the holder of the highest double dealt opens with it (**Our "
            "decision:** with no double dealt, the heaviest tile). Later hands: the previous "
            "hand's winner (after a tied hand, the previous opener), with any tile.\n"
            "- If you cannot play, you pass.\n"
            "- Domino: the winners score the opponents' pips; the partner's do not count.\n"
            "- Block (tranque): the pair of the single player with the fewest pips wins, "
            "scoring the pips left in the opponents' hands (**Our decision:** the source says "
            '"placed": we read it as unplaced). **Our decision:** a tie between players of '
            "both pairs scores nothing.\n"
            "- The match goes to 100 points."
        ),
        "es": (
            "Dominó doble nueve (55 fichas), 4 jugadores en dos parejas, 10 fichas cada uno; "
            "las otras 15 se quedan boca abajo, dormidas, y no se usan.\n"
            "- Primera data: sale quien tenga el doble más alto repartido, con ese doble "
            "(**Decisión nuestra:** si no se repartió ningún doble, la ficha más pesada). "
            "Datas siguientes: sale quien ganó la anterior (tras una data empatada, quien "
            "salió en ella), con cualquier ficha.\n"
            "- Si no puedes jugar, pasas.\n"
            "- Al dominar, la pareja ganadora se anota los puntos de los rivales; los del "
            "compañero no cuentan.\n"
            "- En el tranque gana la pareja del jugador con menos puntos y se anota los puntos "
            "que les quedan a los rivales (**Decisión nuestra:** la fuente dice «colocadas»: lo "
            "leemos como «sin colocar»). **Decisión nuestra:** si empatan jugadores de las dos "
            "parejas, nadie se anota nada.\n"
            "- La partida es a 100 puntos."
        ),
        "pt": (
            "Dominó duplo-nove (55 pedras), 4 jogadores em duas duplas, 10 pedras cada um; as "
            "outras 15 ficam viradas, dormindo, e não são usadas.\n"
            "- Primeira rodada: quem tem a maior carroça distribuída sai com ela (**Nossa "
            "decisão:** sem carroça distribuída, a pedra mais pesada). Rodadas seguintes: sai "
            "quem venceu a anterior (depois de uma rodada empatada, quem saiu nela), com "
            "qualquer pedra.\n"
            "- Se não puder jogar, você passa a vez.\n"
            "- Na batida, a dupla vencedora marca os pontos dos adversários; os do parceiro "
            "não contam.\n"
            "- Na tranca, vence a dupla do jogador com menos pontos, marcando os pontos que "
            "sobram nas mãos dos adversários (**Nossa decisão:** a fonte diz \"colocadas\": "
            'lemos "não colocadas"). **Nossa decisão:** se empatarem jogadores das duas '
            "duplas, ninguém marca pontos.\n"
            "- A partida vai até 100 pontos."
        ),
    },
    "seven-seven": {
        "en": (
            "Two people, each holding both seats of one pair of a Spanish game in pairs "
            "(seats 1 and 3 against 2 and 4), 7 tiles per seat, no pile. You play whichever "
            "of your seats is to move.\n"
            "- The first hand is opened by a random seat (**Our decision:** the source names no "
            "first opener), each later hand by the seat after "
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
            "- La primera mano la abre un asiento al azar (**Decisión nuestra:** la fuente no "
            "dice quién sale primero); cada mano siguiente, el asiento "
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
            "- A primeira rodada é aberta por um lugar sorteado (**Nossa decisão:** a fonte não "
            "diz quem sai primeiro); cada rodada seguinte, pelo "
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
            "with it. **Our decision:** the sources say \"the highest double, or the highest "
            "rank of tiles\" and \"the highest tile (sum of both ends)\": the highest double "
            "comes first. **Our decision:** the same rule opens every hand (the sources say "
            "nothing of later hands).\n"
            "- If no tile fits, draw one at a time until one fits; that tile must be played at "
            "once. No drawing while the pile has 2 tiles or fewer: then you pass. **Our "
            "decision:** one source stops drawing at 2 tiles left, the other draws the pile "
            "empty; we stop at 2.\n"
            "- Domino: the winner scores the opponent's pips.\n"
            "- Block: nobody can play or draw. If the line is closed (no tile can fit any "
            "more) while the pile holds more than 2 tiles, the player to move first draws it "
            "down to 2, then the block counts. The lower pip count wins the difference; equal "
            "counts score nothing.\n"
            "- The match goes to 100 points."
        ),
        "es": (
            "2 jugadores, 7 fichas cada uno, 14 en el pozo.\n"
            "- En cada mano sale quien tiene el doble más alto, con ese doble; si no se "
            "repartió ningún doble, quien tiene la ficha más pesada (más puntos y, a "
            "igualdad, el número más alto), con esa ficha. **Decisión nuestra:** las fuentes "
            "dicen «el doble más alto, o la ficha de mayor rango» y «la ficha más alta (suma "
            "de sus dos números)»: primero va el doble más alto. **Decisión nuestra:** la misma "
            "regla vale en cada mano (las fuentes no dicen nada de las manos siguientes).\n"
            "- Si no llevas ficha que entre, robas del pozo de una en una hasta que entre "
            "alguna, y esa ficha hay que jugarla enseguida. No se roba si en el pozo quedan 2 "
            "fichas o menos: entonces pasas. **Decisión nuestra:** una fuente deja de robar "
            "con 2 fichas en el pozo, la otra roba hasta vaciarlo; paramos en 2.\n"
            "- Al dominar, el ganador se anota los puntos del rival.\n"
            "- Tranca: nadie puede jugar ni robar. Si el juego está cerrado (ya no puede "
            "entrar ninguna ficha) y en el pozo quedan más de 2 fichas, al que le toca roba "
            "primero hasta dejar 2, y entonces cuenta la tranca. Quien tiene menos puntos se "
            "anota la diferencia; si empatan, nadie se anota nada.\n"
            "- La partida es a 100 puntos."
        ),
        "pt": (
            "2 jogadores, 7 pedras cada um, 14 no monte.\n"
            "- Em cada rodada sai quem tem a maior carroça, com ela; se nenhuma carroça foi "
            "distribuída, quem tem a pedra mais pesada (mais pontos e, empatando, o número "
            "mais alto), com ela. **Nossa decisão:** as fontes dizem \"a maior carroça, ou a "
            "pedra de maior valor\" e \"a pedra mais alta (soma dos dois lados)\": a maior "
            "carroça vem primeiro. **Nossa decisão:** a mesma regra vale em toda rodada (as "
            "fontes não falam das rodadas seguintes).\n"
            "- Se nenhuma pedra encaixa, compre do monte uma de cada vez até alguma encaixar; "
            "essa pedra tem que ser jogada na hora. Não se compra com 2 pedras ou menos no "
            "monte: então você passa a vez. **Nossa decisão:** uma fonte para de comprar com 2 "
            "pedras no monte, a outra compra até esvaziá-lo; paramos em 2.\n"
            "- Na batida, o vencedor marca os pontos do adversário.\n"
            "- Tranca: ninguém pode jogar nem comprar. Se o jogo está fechado (nenhuma pedra "
            "encaixa mais) e o monte tem mais de 2 pedras, o jogador da vez compra primeiro "
            "até sobrarem 2, e então a tranca conta. Quem tem menos pontos marca a diferença; "
            "empate não vale pontos.\n"
            "- A partida vai até 100 pontos."
        ),
    },
    "two": {
        "en": (
            "2 players, 7 tiles each, 14 in the pile.\n"
            "- First hand: the highest double opens (**Our decision:** without a double, the "
            "heaviest tile); later hands: the players take turns to open.\n"
            "- If no tile fits, draw until one fits; when the pile is empty, pass.\n"
            "- Domino: the winner scores the opponent's pips.\n"
            "- Closed line (tranca): the closer's opponent takes the rest of the pile into his "
            "hand, then the player with fewer pips scores the difference. **Our decision:** "
            "equal counts score nothing.\n"
            "- The match goes to 100 points."
        ),
        "es": (
            "2 jugadores, 7 fichas cada uno, 14 en el pozo.\n"
            "- Primera mano: sale el doble más alto (**Decisión nuestra:** sin dobles, la "
            "ficha más pesada); en las siguientes, salen por turnos.\n"
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
            "- Primeira rodada: sai a maior carroça (**Nossa decisão:** sem carroças, a pedra "
            "mais pesada); nas seguintes, os jogadores se alternam na saída.\n"
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
            "- The round also ends as soon as there are 2 tiles left in the pile and the "
            "player to move cannot play (the source's second way to end a round, not a "
            "block): penalties as for a domino, without the extra 5.\n"
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
            "- La mano también termina en cuanto quedan 2 fichas en el pozo y el jugador al "
            "que le toca no puede jugar (la segunda forma de acabar una mano según la fuente, "
            "no una tranca): penalización como al dominar, sin los 5 de más.\n"
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
            "- A rodada também termina assim que restam 2 pedras no monte e o jogador da vez "
            "não pode jogar (a segunda forma de terminar uma rodada segundo a fonte, não uma "
            "tranca): penalidades como na batida, sem os 5 extras.\n"
            "- São exatamente 4 rodadas; vence quem somar menos pontos de penalidade; com "
            "totais iguais, a partida termina empatada."
        ),
    },
    "all-fives": {
        "en": (
            "All Fives (Muggins), the game asked for in the comments of the partners source: "
            "2 to 4 players (option `{players}`, default 2; with 4, two pairs: seats 1 and 3 "
            "against 2 and 4). 7 tiles each with 2 players, 5 each with 3 or 4 (**Our "
            "decision:** the usual counts); the rest is the boneyard.\n"
            "- First hand: the holder of the highest double opens with it (no double dealt: "
            "the heaviest tile). Later hands: the previous hand's winner, with any tile. "
            "**Our decision** (the usual descriptions differ).\n"
            "- The first double laid is the **spinner**: tiles go on its up and down sides too, "
            "not only left and right. **Our decision:** up and down open once its left and "
            "right sides both hold a tile. Other doubles are ordinary tiles.\n"
            "- If no tile fits, draw one at a time until one fits, and play it; with the "
            "boneyard empty, pass. **Our decision:** the whole boneyard may be drawn.\n"
            "- After every play add up the open ends: a double at an end counts both halves "
            "(the spinner too, while its left or right side is empty); an empty up or down "
            "side counts nothing; the first tile alone counts both numbers. A multiple of 5 "
            "scores at once for the player's side (opening 5-5 scores 10).\n"
            "- Domino: the winner's side scores the opponents' pips (with 4 players, the "
            "other pair's), rounded to the nearest 5 (1-2 down, 3-4 up).\n"
            "- Block (nobody can play, the boneyard empty): **Our decision:** the side with "
            "the fewest pips (a pair's total with 4 players) scores the opponents' pips "
            "rounded to 5; equal counts score nothing.\n"
            "- The match goes to 150 points (option `{target}`: 100, 150 or 250). **Our "
            "decision:** it is decided when a hand ends: the side with the most points at or "
            "above the target wins; level sides play another hand."
        ),
        "es": (
            "All Fives (Muggins, «todos los cincos»), el juego que piden los comentarios de "
            "la fuente de parejas: de 2 a 4 jugadores (opción `{players}`, 2 por defecto; con "
            "4, dos parejas: asientos 1 y 3 contra 2 y 4). 7 fichas cada uno con 2 jugadores, "
            "5 cada uno con 3 o 4 (**Decisión nuestra:** lo habitual); el resto es el pozo.\n"
            "- Primera mano: sale quien tiene el doble más alto, con ese doble (sin dobles "
            "repartidos, la ficha más pesada). Manos siguientes: sale quien ganó la anterior, "
            "con cualquier ficha. **Decisión nuestra** (las descripciones habituales "
            "difieren).\n"
            "- El primer doble que se pone es el **spinner** (la mula que abre cuatro puntas): "
            "se juega también por arriba y por abajo, no solo a izquierda y derecha. "
            "**Decisión nuestra:** arriba y abajo se abren cuando ya hay ficha a su izquierda "
            "y a su derecha. Los demás dobles son fichas normales.\n"
            "- Si no llevas ficha que entre, robas del pozo de una en una hasta que entre "
            "alguna, y la juegas; con el pozo vacío, pasas. **Decisión nuestra:** se puede "
            "robar el pozo entero.\n"
            "- Tras cada jugada se suman las puntas: un doble en una punta cuenta sus dos "
            "mitades (también el spinner mientras le falte ficha a izquierda o derecha); un "
            "lado de arriba o abajo sin fichas no cuenta; la ficha de salida sola cuenta sus "
            "dos números. Si la suma es múltiplo de 5, el bando del jugador se la anota en el "
            "acto (salir con el 5-5 vale 10).\n"
            "- Al dominar, el bando ganador se anota los puntos de los rivales (con 4 "
            "jugadores, los de la otra pareja), redondeados al 5 más cercano (1-2 hacia abajo, "
            "3-4 hacia arriba).\n"
            "- Tranca (nadie puede jugar y el pozo está vacío): **Decisión nuestra:** el bando "
            "con menos puntos (con 4 jugadores, la suma de la pareja) se anota los puntos de "
            "los rivales redondeados al 5; si empatan, nadie se anota nada.\n"
            "- La partida es a 150 puntos (opción `{target}`: 100, 150 o 250). **Decisión "
            "nuestra:** se decide al acabar una mano: gana el bando con más puntos que haya "
            "llegado a la meta; si empatan, se juega otra mano."
        ),
        "pt": (
            "All Fives (Muggins, \"todos os cincos\"), o jogo pedido nos comentários da fonte "
            "das duplas: de 2 a 4 jogadores (opção `{players}`, 2 por padrão; com 4, duas "
            "duplas: lugares 1 e 3 contra 2 e 4). 7 pedras cada um com 2 jogadores, 5 cada um "
            "com 3 ou 4 (**Nossa decisão:** o usual); o resto é o monte.\n"
            "- Primeira rodada: quem tem a maior carroça sai com ela (sem carroças "
            "distribuídas, a pedra mais pesada). Rodadas seguintes: sai quem venceu a "
            "anterior, com qualquer pedra. **Nossa decisão** (as descrições usuais "
            "divergem).\n"
            "- A primeira carroça jogada é o **spinner** (a carroça que abre quatro pontas): "
            "recebe pedras também em cima e embaixo, não só à esquerda e à direita. **Nossa "
            "decisão:** cima e baixo se abrem quando já há pedra à esquerda e à direita dela. "
            "As outras carroças são pedras comuns.\n"
            "- Se nenhuma pedra encaixa, compre do monte uma de cada vez até alguma encaixar, "
            "e jogue-a; com o monte vazio, passe a vez. **Nossa decisão:** pode-se comprar o "
            "monte inteiro.\n"
            "- Depois de cada jogada somam-se as pontas: uma carroça na ponta conta as duas "
            "metades (o spinner também, enquanto faltar pedra à esquerda ou à direita); um "
            "lado de cima ou de baixo sem pedras não conta; a pedra de saída sozinha conta os "
            "dois números. Se a soma for múltiplo de 5, o lado do jogador marca na hora (sair "
            "com a 5-5 vale 10).\n"
            "- Na batida, o lado vencedor marca os pontos dos adversários (com 4 jogadores, "
            "os da outra dupla), arredondados para o 5 mais próximo (1-2 para baixo, 3-4 para "
            "cima).\n"
            "- Tranca (ninguém pode jogar e o monte está vazio): **Nossa decisão:** o lado com "
            "menos pontos (com 4 jogadores, a soma da dupla) marca os pontos dos adversários "
            "arredondados para 5; empate não vale pontos.\n"
            "- A partida vai até 150 pontos (opção `{target}`: 100, 150 ou 250). **Nossa "
            "decisão:** ela se decide ao fim de uma rodada: vence o lado com mais pontos que "
            "tenha chegado à meta; lados empatados jogam mais uma rodada."
        ),
    },
}

# Variants the engine plays that the bot does not offer yet (domino.STAGED).
STAGED_RULES: dict[str, dict[str, str]] = {}


def option_names(locale: str | None) -> dict[str, str]:
    """The option names of ``/domino new`` as the reader's Discord shows them."""
    return {name: lookup(locale, name, OPTION_NAME) or name for name in OPTIONS}


def variant_rules(locale: str | None, variant: str) -> str:
    """The rules of ``variant`` (a preset id) in the language of ``locale``."""
    texts = RULES.get(variant) or STAGED_RULES[variant]
    return texts.get(language(locale), texts["en"]).format(**option_names(locale))


def common_rules(locale: str | None) -> str:
    """The rules every variant shares, in the language of ``locale``."""
    return COMMON.get(language(locale), COMMON["en"]).format(**option_names(locale))


def rules_text(locale: str | None, variant: str) -> str:
    """What ``/domino rules variant`` shows: the variant's rules, then the common ones."""
    return variant_rules(locale, variant) + "\n\n" + common_rules(locale)


SOURCES = (
    "seed 000: Lagunex, partnership domino, and the players' comments under it (partners, "
    "the Latin bonuses, All Fives asked for)",
    "seed 001: Dominoes Deluxe and the draw game it quotes (draw)",
    "seed 002: Brettspielnetz (penalty)",
    "seed 003: Ludoteka, all its modes (spanish, seven-seven, venezuelan, two, three, cuban; "
    "forced moves)",
    "seed 004: Brazilian domino (brazilian)",
)


def rules_document() -> str:
    """``docs/rules.md``: what ``/domino rules`` shows for every variant, in English."""
    from domino.rules import KNOWN

    lines = [
        "# The rules",
        "",
        "What `/domino rules <variant>` shows, in English (Spanish and Portuguese in Discord).",
        "Generated from `bot/rules_text.py` with `python -m bot.rules_text > docs/rules.md`; a",
        "test checks it is up to date. **Our decision:** marks each point where the source",
        "pages are silent or contradict each other.",
        "",
        "The source pages:",
        "",
        *(f"- {source}" for source in SOURCES),
        "",
    ]
    for variant, ruleset in KNOWN.items():
        staged = " — not offered by the bot yet" if variant not in RULES else ""
        lines += [f"## {ruleset.name} (`{variant}`){staged}", "", variant_rules(None, variant), ""]
    common = common_rules(None).replace("**Common rules**", "## Common rules\n")
    return "\n".join(lines) + common + "\n"


if __name__ == "__main__":
    print(rules_document(), end="")
