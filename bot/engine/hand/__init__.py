"""One hand: ``hand`` (``StudHand``, the state and its verify/can/apply), the street loop
(``dealing``), decisions (``baseball``), action planning (``planning``), the showdown
(``showdown``) and the events it reports (``events``)."""
