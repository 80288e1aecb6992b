//! The rulebook in Vietnamese.

use super::{Catalogue, Topic};

pub(super) const CATALOGUE: Catalogue = Catalogue {
    title,
    body,
    source_label: "Nguồn: ",
    source_sep: "; ",
    source_end: ".",
    heading: "Luật cờ tướng: danh sách chủ đề, mỗi mục ghi tên lệnh (tiêu đề).",
    groups: [
        "Quân cờ và cách đi",
        "Chiếu, đuổi và các loại nước",
        "Lặp thế cờ, giới hạn đếm và phạm luật",
        "Hòa cờ",
        "Bộ luật",
    ],
    list_sep: ", ",
    colon: ": ",
    parens: (" (", ")"),
    hint: "Hỏi bằng /rules TÊN, ví dụ /rules horse (hoặc: xiangqi-bot rules horse --lang vi); \
gõ tiếng Việt cũng được, như /rules mã. Bộ luật mặc định là official; đổi bằng /ruleset TÊN.",
    unknown: "Không có chủ đề này. Gõ /rules để xem danh sách chủ đề.",
};

fn title(t: Topic) -> &'static str {
    match t {
        Topic::General => "Tướng (Soái)",
        Topic::Advisor => "Sĩ",
        Topic::Elephant => "Tượng (Voi)",
        Topic::Horse => "Mã",
        Topic::Chariot => "Xe",
        Topic::Cannon => "Pháo",
        Topic::Soldier => "Tốt (Binh, Chốt)",
        Topic::FlyingGeneral => "Lộ mặt tướng",
        Topic::Check => "Chiếu",
        Topic::Checkmate => "Chiếu bí",
        Topic::Stalemate => "Hết nước đi",
        Topic::Chase => "Đuổi (tróc)",
        Topic::Trade => "Đổi quân",
        Topic::Idle => "Nước nhàn (chờ, cản)",
        Topic::Kill => "Dọa chiếu bí (sát)",
        Topic::PerpetualCheck => "Chiếu dai",
        Topic::PerpetualChase => "Đuổi dai",
        Topic::Repetition => "Lặp thế cờ (bảng A và O)",
        Topic::NoProgress => "Hòa vì không tiến triển",
        Topic::EffectiveMoves => "Luật nước có hiệu lực",
        Topic::MoveLimit => "Giới hạn độ dài ván",
        Topic::InsufficientMaterial => "Không đủ lực tấn công",
        Topic::DrawClaim => "Hòa cờ và xin hòa",
        Topic::Enforcement => "Cách xử lý: xử thua hay từ chối",
        Topic::Official => "Luật chính thức (mặc định)",
        Topic::Asian => "Luật châu Á (AXF/WXF)",
        Topic::Vietnam => "Luật Việt Nam 2004",
        Topic::Cxq => "Luật câu lạc bộ CXQ",
        Topic::Casual => "Luật ứng dụng (casual)",
    }
}

fn body(t: Topic) -> &'static str {
    match t {
        Topic::General => {
            "\
Đi một bước theo cột hoặc hàng, không đi chéo, và không bao giờ ra khỏi cung: cột d–f, hàng \
0–2 với Đỏ (xuất phát ở e0), hàng 7–9 với Đen (e9).
• Ví dụ: e0e1 hợp lệ; e2e3 thì không, vì e3 nằm ngoài cung.
• Không được dừng ở điểm bị ăn, cũng không được đối mặt với tướng kia trên cột trống \
(/rules flying-general).
• Tướng không bao giờ tính là quân đuổi và cũng không bị đuổi: dọa ăn tướng là chiếu."
        }
        Topic::Advisor => {
            "\
Đi chéo một bước và không rời cung, nên chỉ đứng được 5 điểm: d0, f0, e1, d2, f2 với Đỏ; d9, \
f9, e8, d7, f7 với Đen.
• Ví dụ: d0e1 hợp lệ; e1e2 thì không, sĩ không bao giờ đi thẳng.
• Sĩ che chắn cho tướng nhưng không chiếu bí được: khi chỉ còn tướng, sĩ và tượng thì ván cờ \
hòa (/rules insufficient-material)."
        }
        Topic::Elephant => {
            "\
Đi chéo đúng hai bước (qua một ô vuông 2×2) và không qua sông, nên chỉ có 7 điểm: c0, g0, a2, \
e2, i2, c4, g4 với Đỏ; c9, g9, a7, e7, i7, c5, g5 với Đen.
• Điểm ở giữa là mắt tượng: khi có quân đứng đó, nước đi ấy bị chặn.
• Ví dụ: c0e2 bị chặn khi d1 có quân; c4e6 không bao giờ có, vì phải vượt sông.
• Tượng không nhảy qua quân."
        }
        Topic::Horse => {
            "\
Đi một bước thẳng (theo cột hoặc hàng) rồi một bước chéo ra xa điểm xuất phát: tối đa 8 điểm đến.
• Chân mã là điểm sát bên mã theo hướng bước thẳng; có quân đứng đó thì mã bị cản chân, không \
đi hướng ấy được.
• Ví dụ: b0c2 và b0a2 bị cản khi b1 có quân; lúc khai cuộc b0d1 bị chính tượng Đỏ ở c0 cản.
• Cản chân chỉ có một chiều: mã đối phương có thể dọa mã của bạn trong khi mã của bạn không với \
tới nó."
        }
        Topic::Chariot => {
            "\
Đi bao nhiêu điểm cũng được theo cột hoặc hàng, không nhảy qua quân, ăn quân địch đầu tiên trên \
đường đi.
• Ví dụ: lúc khai cuộc a0a2 hợp lệ nhưng a0a3 thì không, vì tốt Đỏ đứng ở a3; i0i1 rồi i1d1 \
đưa xe vào giữa.
• Quân mạnh nhất: mã hoặc pháo dọa xe luôn tính là đuổi, dù xe có căn (/rules chase)."
        }
        Topic::Cannon => {
            "\
Khi không ăn quân, pháo đi như xe. Muốn ăn quân, pháo phải nhảy qua đúng một quân trên đường \
thẳng (gọi là ngòi, bên nào cũng được) rồi đáp xuống quân địch phía sau; các điểm khác ở giữa \
phải trống.
• Ví dụ: khai cuộc h2e2 (pháo đầu); h2h9 ăn mã Đen ở h9, nhảy qua pháo Đen ở h7.
• Không có ngòi, hoặc có hai quân ở giữa, thì không ăn được.
• Đặt một quân làm ngòi có thể khiến pháo chiếu hoặc đuổi (đòn lộ)."
        }
        Topic::Soldier => {
            "\
Đi thẳng một bước về phía trước. Khi đã qua sông (Đỏ ở hàng 5–9, Đen ở hàng 0–4) được đi ngang \
một bước. Không bao giờ lùi và không phong cấp; tới hàng cuối thì chỉ còn đi ngang.
• Ví dụ: e3e4, e4e5, rồi e5d5 hoặc e5e6 hợp lệ; e5e4 thì không bao giờ.
• Tốt có tính là đuổi không? Trong luật official chỉ tốt đã qua sông mới đuổi được; ở các bộ \
luật khác tốt không bao giờ tính là đuổi. Tốt chưa qua sông cũng không bao giờ bị tính là bị đuổi."
        }
        Topic::FlyingGeneral => {
            "\
Hai tướng không bao giờ được đứng trên cùng một cột mà giữa không có quân nào; nước đi khiến \
hai tướng đối mặt là không hợp lệ.
• Ví dụ: Tướng Đỏ ở e0, Tướng Đen ở e9, giữa chỉ có pháo Đỏ ở e2: e2d2 không hợp lệ vì mở \
cột e.
• Đây cũng là vũ khí: tướng khống chế cột trống như một xe, tướng địch không bước vào được; \
tướng chỉ ăn lại được bằng cách đối mặt thì là căn giả.
• Máy từ chối nước đi như vậy và nói rõ cột nào sẽ bị mở."
        }
        Topic::Check => {
            "\
Một nước là chiếu (将) khi sau nước đó tướng đối phương bị dọa: có thể bị ăn ở nước kế \
tiếp.
• Chiếu lộ cũng tính: dời một quân khỏi đường, gỡ chân mã, hoặc tạo ngòi cho pháo.
• Cách đỡ: chạy tướng, ăn quân đang chiếu, hoặc cản (拦): chèn quân vào đường chiếu hay \
vào chân mã, thêm một quân thứ hai giữa pháo và tướng (hoặc dời ngòi đi nếu ngòi là quân mình).
• Nước đi để tướng mình bị dọa là không hợp lệ.
• Trọng tài ghi mỗi nước là chiếu, đuổi, dọa chiếu bí hay nhàn; chiếu liên tục bị giới hạn \
(/rules perpetual-check)."
        }
        Topic::Checkmate => {
            "\
Bên đến lượt đang bị chiếu và không còn nước đi hợp lệ nào: bên đó thua ngay.
• Nước phạm luật lộ mặt tướng hoặc để tướng bị dọa không phải là nước thoát.
• Chiếu bí được xét trước mọi luật khác: nước chiếu bí vẫn thắng dù nó đồng thời làm lặp thế \
hay vượt giới hạn đếm.
• Không bị chiếu mà hết nước đi cũng thua (/rules stalemate)."
        }
        Topic::Stalemate => {
            "\
Bên đến lượt không bị chiếu nhưng không còn nước đi hợp lệ nào: trong cờ tướng bên đó thua, \
không phải hòa như cờ vua.
• “Luật Thi Đấu Cờ Tướng” (mục V), luật CXQ và luật Việt Nam (Điều 7.1b) đều thống nhất điều này.
• Giống chiếu bí, hết nước đi được xét trước các lỗi phạm luật và các luật hòa.
• Với cách xử lý từ chối (refuse), người chơi mà mọi nước hợp lệ đều bị từ chối cũng thua \
(/rules enforcement)."
        }
        Topic::Chase => {
            "\
Một nước là đuổi (tróc, 捉) quân P của đối phương khi nó tạo ra mối dọa mới ăn P ở nước \
sau và P không được bảo vệ thật sự. Phải đủ các điều kiện:
• P không phải tướng (đó là chiếu), không phải tốt chưa qua sông; quân dọa không phải tướng, \
không phải tốt (trừ tốt đã qua sông trong luật official).
• Mối dọa phải mới: dọa trực tiếp, dọa lộ, pháo có thêm ngòi, hoặc quân bảo vệ P bị ăn hay bị \
ghim. Mối dọa có sẵn từ trước thì không tính.
• Nước ăn phải hợp lệ, và P không có căn thật: không quân nào ăn lại hợp lệ được ở điểm của P \
(quân bảo vệ bị ghim, hoặc tướng vướng luật lộ mặt, là căn giả).
• Ngoại lệ: mã hoặc pháo dọa xe luôn là đuổi, dù xe có căn hay không.
• Đòi đổi giữa hai quân cùng loại không phải đuổi (/rules trade)."
        }
        Topic::Trade => {
            "\
Khi quân dọa và quân bị dọa cùng loại (xe–xe, mã–mã, pháo–pháo) và quân bị dọa ăn lại hợp lệ \
được, nước đó là đòi đổi (兑): không phải đuổi, lặp lại bao nhiêu cũng được.
• Nếu quân bị dọa không ăn lại được (bị cản chân, bị ghim) thì vẫn là đuổi.
• Luật Việt Nam, Ván 16–17: xe cứ đòi đổi với xe địch là hợp lệ (hòa); hai xe thay nhau bắt \
một xe bị ghim là đuổi (bị xử thua).
• Thí quân cho đối phương ăn là nước nhàn."
        }
        Topic::Idle => {
            "\
Nước nhàn (chờ, 闲) không chiếu, không đuổi, cũng không dọa chiếu bí: ra quân, phòng thủ, \
chờ, dọa quân có căn (trừ mã hoặc pháo dọa xe), đòi đổi quân, hoặc cản (拦) một đòn tấn \
công. Nước dọa chiếu bí có tên riêng (/rules kill).
• Cản mãi là được phép (luật Việt Nam, Ván 3); nhưng nước vừa cản vừa đuổi thì tính là đuổi.
• Khi lặp thế cờ, chính các nước nhàn làm một bên thành xen kẽ chứ không phải chiếu dai hay \
đuổi dai (/rules repetition)."
        }
        Topic::Kill => {
            "\
Dọa chiếu bí (sát, hăm bí, 杀) là nước không chiếu nhưng nếu bên vừa đi được đi tiếp ngay thì \
sẽ có nước chiếu bí. Máy nhìn trước một nước để tìm nước chiếu bí đó.
• Dọa chiếu bí được phép, bao nhiêu lần cũng được: dọa bí mãi, một chiếu một hăm bí, dọa bí xen \
nước nhàn đều xử hòa khi lặp thế cờ (luật châu Á AXF/WXF; luật Việt Nam, Ván 3–4).
• Dọa chiếu bí không phải đuổi: quân phòng thủ bị chính nước dọa bí ghim vào tướng (hoặc tướng \
bị nước đó làm lộ mặt) vẫn tính là căn, nên quân nó bảo vệ không bị nước đó đuổi. Quân đã bị ghim \
từ trước vẫn là căn giả.
• Nước vừa dọa bí vừa đuổi thật (quân không có căn, hoặc xe bị mã/pháo dọa) là nước đuổi: luật \
chọn cách hiểu có thể phạm luật.
• Đếm: nước dọa bí làm đứt chuỗi chiếu hay đuổi liên tục (official, cxq); với cxq nó là nước có \
hiệu lực."
        }
        Topic::PerpetualCheck => {
            "\
Không được chiếu mãi để giữ hòa; thế nào là \"mãi\" tùy bộ luật:
• Lặp thế (official, asian, vietnam, casual): khi một thế cờ xuất hiện lần thứ 3, bên mà mọi \
nước trong chu kỳ đều là chiếu sẽ thua, trừ khi bên kia cũng vậy (hòa).
• Giới hạn đếm: official, quá 6 nước chiếu liên tiếp bằng cùng một quân (nhiều quân thay nhau \
thì để luật lặp quyết định); cxq, quá 6 nước với 1 quân, 12 với 2 quân, 18 với 3 quân trở lên; \
casual, nước chiếu liên tiếp thứ 10 bị từ chối. asian và vietnam không đếm.
• Chiếu, nhàn, chiếu, nhàn… không phải chiếu dai: bảng A (asian, vietnam, casual) xử hòa; \
bảng O (official) xử bên đó thua nếu bên kia chỉ đi nước nhàn."
        }
        Topic::PerpetualChase => {
            "\
Đuổi mãi cùng một quân cũng bị cấm.
• Lặp thế: ở lần xuất hiện thứ 3, bên mà mọi nước trong chu kỳ đều đuổi cùng một quân (bằng \
quân nào cũng được, không chiếu) sẽ thua nếu bên kia nhàn hoặc xen kẽ; hai bên cùng đuổi dai: \
hòa; chiếu dai gặp đuổi dai: bên chiếu thua.
• Lần lượt đuổi hai quân khác nhau không phải đuổi dai (hòa), kể cả bằng hai quân (luật Việt \
Nam, Ván 10–11).
• Giới hạn đếm: official, quá 6 nước đuổi liên tiếp cùng một quân; cxq, quá 6, 12 hay 18 nước \
với 1, 2 hay 3 quân trở lên; asian, vietnam và casual không đếm.
• Dọa quân có căn thật không phải đuổi (Ván 13); căn giả không bảo vệ được (Ván 14); mã hay \
pháo không được đuổi mãi xe dù xe có căn (Ván 15)."
        }
        Topic::Repetition => {
            "\
Hai thế cờ là một khi cả 90 điểm có cùng quân và cùng bên đến lượt. Khi một thế cờ xuất hiện \
lần thứ 3, chu kỳ là các nước từ lần xuất hiện trước đó, và mỗi bên được xếp loại: chiếu dai \
(nước nào cũng chiếu), đuổi dai (nước nào cũng đuổi cùng một quân) hoặc xen kẽ (chiếu + nhàn, \
đuổi + nhàn, chiếu + đuổi, nhàn; nước dọa chiếu bí luôn được phép, /rules kill).
• Bảng A (asian, vietnam, casual): chiếu dai thua mọi bên trừ bên cũng chiếu dai; đuổi dai thua \
bên nhàn hoặc xen kẽ; hai bên cùng loại: hòa; chiếu dai gặp đuổi dai: bên chiếu thua; còn lại \
đều hòa, nên một chiếu một nhàn là được.
• Bảng O (official): như bảng A, thêm: bên xen kẽ tấn công gặp bên chỉ đi nhàn thì thua (bên \
tấn công phải đổi nước); cùng chiếu, cùng đuổi, cùng nhàn: hòa.
• cxq không xử lặp thế: các giới hạn đếm và luật hòa quyết định.
• Máy cảnh báo trước khi bạn đi nước sẽ thua theo cách này."
        }
        Topic::NoProgress => {
            "\
Một quãng dài không tiến triển thì hòa. Quãng này tính lại từ đầu mỗi khi có quân bị ăn (và, \
nếu bộ luật ghi vậy, mỗi khi tốt đã qua sông tiến lên một bước):
• official: 120 nước (mỗi bên 60) không có cả hai điều đó: tự động hòa; mọi nước chiếu đều tính.
• asian: 120 nước không ăn quân; các nước chiếu của một bên sau nước chiếu thứ 10 trong quãng \
đó không được tính.
• vietnam: 100 nước (mỗi bên 50) không ăn quân, mỗi bên tính tối đa 5 nước chiếu; chỉ hòa khi \
xin bằng /draw.
• cxq (luật tiến triển): 60 nước (mỗi bên 30) không ăn quân và không có tốt qua sông tiến lên: hòa.
• casual: 120 nước không ăn quân: hòa."
        }
        Topic::EffectiveMoves => {
            "\
Chỉ có trong cxq. Một nước là có hiệu lực khi nó không phải chiếu, không phải đuổi, và không \
phải nước đáp lại nước chiếu hay đuổi đối phương vừa đi. Khi mỗi bên đã đi đủ 120 nước có hiệu \
lực, ván cờ tự động hòa.
• Đếm trên toàn ván: ăn quân không làm đếm lại.
• Luật CXQ ghi \"tổng số nước đi là 120\"; máy hiểu là 120 nước cho mỗi bên."
        }
        Topic::MoveLimit => {
            "\
Hai bộ luật dừng ván cờ quá dài và xử hòa:
• official: khi ván cờ đạt tổng cộng 300 nước (máy hiểu \"300 nước đi\" của “Luật Thi Đấu Cờ Tướng” là \
300 nước đơn, không phải 300 hiệp).
• cxq: mỗi bên 300 nước, tức 600 nước.
• asian, vietnam, casual: không giới hạn; luật lặp thế và luật không tiến triển kết thúc ván dài."
        }
        Topic::InsufficientMaterial => {
            "\
Khi cả hai bên đều không còn xe, mã, pháo hay tốt (chỉ còn tướng, sĩ, tượng), không ai chiếu \
bí được: ván cờ hòa ngay, trong mọi bộ luật.
• Chiếu bí, hết nước đi và các lỗi phạm luật được xét trước.
• Các thế vô vọng khác, như một pháo không có quân làm ngòi đấu tướng trơ, không tự động hòa: \
hai bên thỏa thuận hòa, hoặc luật không tiến triển sẽ kết thúc ván."
        }
        Topic::DrawClaim => {
            "\
Ván cờ hòa khi hai bên thỏa thuận (một bên đề nghị, bên kia đồng ý), khi xử lặp thế hay giới \
hạn đếm ra hòa, hoặc theo một luật hòa (/rules no-progress, effective-moves, move-limit, \
insufficient-material).
• Chỉ bộ luật vietnam có xin hòa: đến lượt mình, gõ /draw. Máy chấp nhận khi đã qua 100 nước \
(mỗi bên 50) không ăn quân, mỗi bên tính tối đa 5 nước chiếu; nếu chưa đủ, máy cho biết đã đếm \
được bao nhiêu.
• Luật Việt Nam cộng 2 phút cho đối phương khi xin hòa sai; máy chỉ từ chối.
• Ở các bộ luật khác những trường hợp hòa này là tự động, không cần xin."
        }
        Topic::Enforcement => {
            "\
Điều gì xảy ra khi một nước vượt giới hạn của bộ luật (chiếu dai, đuổi dai, vượt giới hạn đếm, \
lặp thế bị xử thua):
• xử thua (forfeit: official, asian, vietnam, cxq): nước đó vẫn được đi, ván kết thúc và bên \
vi phạm thua.
• từ chối (refuse: casual): máy không nhận nước đó, nói rõ lý do, và bạn phải đi nước khác; nếu \
mọi nước hợp lệ của bạn đều bị từ chối thì bạn thua.
• Ở cả hai cách máy đều cảnh báo trước: khi nước chiếu hay đuổi tiếp theo của bạn sẽ vượt giới \
hạn đếm, và trước nước sẽ thua vì lặp thế.
• Nước đi sai luật (đi sai cách, để tướng bị dọa, lộ mặt tướng) luôn bị từ chối, trong mọi bộ luật."
        }
        Topic::Official => {
            "\
official: bộ luật mặc định, theo trang hướng dẫn “Luật Thi Đấu Cờ Tướng”. Đổi bằng /ruleset TÊN \
(official, asian, vietnam, cxq, casual).
• Giới hạn đếm: quá 6 nước chiếu liên tiếp bằng cùng một quân, hoặc quá 6 nước đuổi liên tiếp \
cùng một quân bị đuổi (bằng quân nào cũng vậy): thua.
• Lặp thế ở lần thứ 3, bảng O: chiếu dai hay đuổi dai thua, bên xen kẽ chiếu hoặc đuổi với nước \
nhàn gặp bên chỉ đi nhàn cũng thua; cùng chiếu, cùng đuổi, cùng nhàn: hòa.
• Tốt đã qua sông đuổi được; tốt chưa qua sông thì không bao giờ.
• Không tiến triển: 120 nước không ăn quân và không có tốt qua sông tiến lên: tự động hòa; mọi \
nước chiếu đều tính.
• Giới hạn 300 nước: hòa. Không có luật nước có hiệu lực. Không đủ lực tấn công: hòa.
• Cách xử lý: xử thua (forfeit)."
        }
        Topic::Asian => {
            "\
asian: luật AXF/WXF, tức Asian Chinese Chess Rules (/ruleset asian).
• Không giới hạn đếm chiếu hay đuổi: chỉ luật lặp thế quyết định, ở lần thứ 3, theo bảng A (một \
chiếu một nhàn được phép; chiếu dai thua; đuổi dai thua bên nhàn hoặc xen kẽ).
• Tốt không bao giờ tính là đuổi.
• Không tiến triển: 120 nước không ăn quân: tự động hòa; tốt tiến không làm đếm lại, và các nước \
chiếu của một bên sau nước thứ 10 trong quãng đó không được tính.
• Không giới hạn độ dài, không có luật nước có hiệu lực. Không đủ lực tấn công: hòa. Cách xử lý: \
xử thua (forfeit)."
        }
        Topic::Vietnam => {
            "\
vietnam: Luật Cờ Tướng Việt Nam 2004 (/ruleset vietnam).
• Không giới hạn đếm chiếu hay đuổi; lặp thế ở lần thứ 3 theo bảng A (một chiếu một nhàn được \
phép, Ván 6).
• Tốt và tướng không bao giờ tính là đuổi: được dọa một quân mãi (mục 6c, Ván 9).
• Không tiến triển: 100 nước (mỗi bên 50) không ăn quân, mỗi bên tính tối đa 5 nước chiếu; \
không tự động: xin hòa bằng /draw.
• Không giới hạn độ dài, không có luật nước có hiệu lực. Không đủ lực tấn công: hòa. Cách xử lý: \
xử thua (forfeit)."
        }
        Topic::Cxq => {
            "\
cxq: luật câu lạc bộ CXQ (/ruleset cxq).
• Giới hạn đếm: quá 6 nước chiếu liên tiếp với 1 quân, 12 với 2 quân, 18 với 3 quân trở lên \
thì thua; đuổi một quân cũng đếm như vậy.
• Không có bảng xử lặp thế: giới hạn đếm và các luật hòa quyết định.
• Tốt không bao giờ tính là đuổi.
• Luật tiến triển: 60 nước (mỗi bên 30) không ăn quân và không có tốt qua sông tiến lên: hòa; \
mọi nước chiếu đều tính.
• Luật nước có hiệu lực: hòa khi mỗi bên đã có 120 nước không phải chiếu, đuổi hay đáp lại chiếu, \
đuổi.
• Giới hạn 600 nước (mỗi bên 300): hòa. Không đủ lực tấn công: hòa. Cách xử lý: xử thua (forfeit)."
        }
        Topic::Casual => {
            "\
casual: luật của ứng dụng trực tuyến (/ruleset casual).
• Nước chiếu liên tiếp thứ 10, bằng quân nào cũng vậy, không được phép; đuổi thì không đếm.
• Lặp thế ở lần thứ 3 theo bảng A; tốt không bao giờ tính là đuổi.
• Không tiến triển: 120 nước không ăn quân: tự động hòa (tốt tiến không làm đếm lại, mọi nước \
chiếu đều tính).
• Không giới hạn độ dài, không có luật nước có hiệu lực. Không đủ lực tấn công: hòa.
• Cách xử lý: từ chối (refuse). Nước bị cấm bị trả lại kèm lý do và bạn chọn nước khác; nếu mọi \
nước hợp lệ của bạn đều bị từ chối thì bạn thua."
        }
    }
}
